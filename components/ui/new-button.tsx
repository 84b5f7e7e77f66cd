import type { ReactNode } from "react";
import { Button } from "./button";

/** A list page's primary "+ New …" button; the plus is decoration, so the button's name is its words alone. */
export function NewButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button variant="primary" onClick={onClick}>
      <span aria-hidden="true" className="text-base leading-none">
        +
      </span>
      {children}
    </Button>
  );
}
