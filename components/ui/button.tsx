import type { ButtonHTMLAttributes } from "react";

const VARIANTS = {
  primary: "bg-accent text-accent-foreground hover:opacity-90 border-transparent",
  secondary: "bg-surface text-foreground border-line-strong hover:bg-surface-sunken",
  ghost: "bg-transparent text-muted border-transparent hover:bg-surface-sunken hover:text-foreground",
  danger: "bg-caution text-white border-transparent hover:opacity-90 dark:text-background",
} as const;

const SIZES = {
  sm: "h-7 px-2.5 text-xs gap-1",
  md: "h-9 px-3.5 text-sm gap-1.5",
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
}

/** The studio's button; `type` defaults to "button" so nothing submits a form by accident. */
export function Button({ variant = "secondary", size = "md", className = "", type = "button", ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center whitespace-nowrap rounded-md border font-medium shadow-card transition disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${SIZES[size]} ${className}`}
      {...props}
    />
  );
}
