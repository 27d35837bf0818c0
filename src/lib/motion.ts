/** Whether motion should be reduced: the device's setting, or the visitor's « Animations réduites » (/affichage). */
export function prefersReducedMotion(): boolean {
  return (
    window.matchMedia('(prefers-reduced-motion: reduce)').matches ||
    document.documentElement.dataset.animations === 'reduites'
  );
}
