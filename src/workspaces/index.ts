export { exportWorkspace, type WorkspaceDeps, type WorkspaceExport } from './export-workspace.js';
export { type ForgetReport, forgetWorkspace } from './forget-workspace.js';
export { type LostWorkspace, lostWorkspaces } from './lost-workspaces.js';
export { formatWorkspaceRef, parseWorkspaceRef, type WorkspaceRef } from './workspace-ref.js';
