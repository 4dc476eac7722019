// The Handoffs and Dashboard views and what the Handoffs view shows while it has nothing to show (package.json
// contributes.viewsContainers, views, viewsWelcome, written by scripts/generate-schemas.ts). One entry per item: add
// yours at the end of its list.

/** The Handoffs tree (tree/handoffTreeProvider.ts). */
export const HANDOFFS_VIEW_ID = 'agentsync.handoffs';
/** The dashboard webview (dashboard/dashboardView.ts). */
export const DASHBOARD_VIEW_ID = 'agentsync.dashboard';

export const VIEW_CONTAINERS = {
  activitybar: [
    {
      id: 'agentsync',
      title: 'AgentSync',
      icon: 'media/agentsync.svg',
    },
  ],
};

export const VIEWS = {
  agentsync: [
    {
      id: HANDOFFS_VIEW_ID,
      name: 'Handoffs',
      icon: 'media/agentsync.svg',
      contextualTitle: 'AgentSync',
      // 3, not 2: the view's first line (what AgentSync is, tree/viewContext.ts) costs a row.
      initialSize: 3,
    },
    {
      type: 'webview',
      id: DASHBOARD_VIEW_ID,
      name: 'Dashboard',
      icon: 'media/agentsync.svg',
      contextualTitle: 'AgentSync',
      initialSize: 3,
    },
  ],
};

export const VIEWS_WELCOME = [
  {
    view: HANDOFFS_VIEW_ID,
    contents:
      'This folder is not an AgentSync workspace yet. AgentSync keeps handoffs between coding agents and people in ' +
      '.agentsync/handoffs.json, with a tracker in AgentTracker.md.\n[$(rocket) Initialize ' +
      'Workspace](command:agentsync.init)\nInitialize creates only what is missing and never overwrites a file.',
    // Also after the first read (agentsync.storeRead): before it an initialized folder would be told it is not one.
    when: 'workbenchState != empty && agentsync.storeRead && !agentsync.initialized',
  },
  {
    view: HANDOFFS_VIEW_ID,
    contents: 'Open a folder to hand work between agents with AgentSync.\n[Open Folder](command:workbench.action.files.openFolder)',
    when: 'workbenchState == empty',
  },
];
