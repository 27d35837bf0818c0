/** Types of Astro.locals, set by the middleware. */
declare namespace App {
  interface Locals {
    /** The staff session under /espace (src/features/espace/session.server.ts), undefined when signed out. */
    espace?: import('./features/espace/auth.server').StaffSession;
  }
}
