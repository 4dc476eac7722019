// Composition root (filled in by the editor work).
export function activate(): void {}
export function deactivate(): void {}
