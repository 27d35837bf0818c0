/** Types of Astro.locals, set by the middleware. */
declare namespace App {
  interface Locals {
    /** The staff session under /espace (src/features/espace/session.server.ts), undefined when signed out. */
    espace?: import('./features/espace/auth.server').StaffSession;
    /** A post sent after its session ended, given back on its page once its sender signs in again. */
    keptPost?: import('./features/espace/kept-posts.server').KeptPost;
    /** Set by a page that fills its form with `keptPost` itself (the layout's script then leaves it). */
    keptPostUsed?: boolean;
    /** Set by the guard for the « session ended » page: whether the post was kept, and the page to go back to. */
    sessionEnded?: { kept: boolean; suite: string };
  }
}
