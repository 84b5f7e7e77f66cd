"use client";

import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/client/api";

/** A stored secret as the API lists it: never its value. */
export interface StoredSecret {
  name: string;
  description: string;
  tool: string | null;
}

/** Stored secrets, loaded once per picker, with a way to reload after creating one. */
export function useStoredSecrets() {
  const [secrets, setSecrets] = useState<StoredSecret[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const body = await api<{ secrets: StoredSecret[] }>("/api/secrets");
      setSecrets(body.secrets);
      setError(null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, []);
  useEffect(() => {
    let cancelled = false;
    api<{ secrets: StoredSecret[] }>("/api/secrets").then(
      (body) => {
        if (!cancelled) setSecrets(body.secrets);
      },
      (caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
      },
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return { secrets, error, reload };
}
