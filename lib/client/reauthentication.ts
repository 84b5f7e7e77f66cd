/**
 * When the server answers a privileged change with "confirm it is you"
 * (403 with `reauthenticate: true`), `api()` asks the person through the
 * prompt the layout registers (components/access/reauthentication-prompt.tsx)
 * and, once they have confirmed, sends the request again. No page needs its
 * own handling.
 */

type Prompt = (reason: string) => Promise<boolean>;

let registered: Prompt | null = null;

/** Registers the prompt; returns the function that removes it. */
export function registerReauthenticationPrompt(prompt: Prompt): () => void {
  registered = prompt;
  return () => {
    if (registered === prompt) registered = null;
  };
}

/** Asks the person to confirm who they are; false when they cancel or no prompt is mounted. */
export async function askToReauthenticate(reason: string): Promise<boolean> {
  return registered ? registered(reason) : false;
}
