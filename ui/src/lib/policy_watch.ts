// Keeps what the content security policy blocked, so a build that needs 'unsafe-inline' (a style
// attribute in a template, say) is caught by the end-to-end tests instead of looking broken.

declare global {
  interface Window {
    /** Each directive the CSP blocked, with what it blocked. */
    nordlysPolicyViolations?: string[];
  }
}

export function watchPolicy(): void {
  window.nordlysPolicyViolations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    const seen = `${e.effectiveDirective}: ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`;
    window.nordlysPolicyViolations?.push(seen);
    console.error(`blocked by the content security policy: ${seen}`);
  });
}
