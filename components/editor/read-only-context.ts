import { createContext, useContext } from "react";

/**
 * Whether the editor is a view only (the person lacks workflow:edit on the
 * workflow): its fieldset is disabled already; parts that would fetch what
 * only a builder may read (the people directory) skip it.
 */
export const ReadOnlyContext = createContext(false);

export const useEditorReadOnly = () => useContext(ReadOnlyContext);
