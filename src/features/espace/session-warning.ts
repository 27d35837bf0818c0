/** How long before a session's end the space warns (ms): 5 minutes to answer « Rester connecté » (WCAG 2.2.1). */
export const SESSION_WARNING_MS = 5 * 60 * 1000;
