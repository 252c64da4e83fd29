export { exportWorkspace, type WorkspaceDeps, type WorkspaceExport } from './export-workspace.js';
export { type ForgetReport, forgetWorkspace } from './forget-workspace.js';
export { formatWorkspaceRef, parseWorkspaceRef, type WorkspaceRef } from './workspace-ref.js';
