// How each vendor's real CLI is run against the scripted model (REAL_AGENTS.md facts, pinned by
// scripts/agents/install-agent-clis.sh): its own tools as the model calls them, the user config it needs in its private
// HOME, its command line and environment. Keyed by the product's vendor record (src/core/hooks/vendors/index.ts), so a
// vendor added there fails to compile here until it gets a run or a reason it has none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentBin } from './agentHarness';
import type { Step } from './modelServer';
import type { VendorId } from '../../src/core/hooks/vendors';

export interface Launch {
  bin: string;
  args: string[];
  /** Variables beyond the harness's clean environment (agentEnv), HOME included. */
  env: Record<string, string>;
}

export interface VendorRun {
  /** What its test in the vendor table (vendors.test.ts) shows beyond the common checks. */
  title: string;
  /** The command as messages name it. */
  command: string;
  /** Runs of the table test besides the plain one: a title and the variables it adds. */
  variants?: { title: string; env: Record<string, string> }[];
  /** Its shell tool running `command`. */
  shell(command: string): Step;
  /** Its file-writing tool creating `file` (absolute, inside `cwd`, the folder the agent runs in). */
  write(cwd: string, file: string, content: string): Step;
  /** The steps that change `from` to `to` in an existing file (absolute, inside `cwd`). */
  edit(cwd: string, file: string, from: string, to: string): Step[];
  /** Writes its user config into `home` for the model at `serverUrl`, trusting `folders`; how to run it on `prompt`. */
  launch(o: { home: string; serverUrl: string; folders: string[]; prompt: string }): Launch;
}

/** A vendor the tier cannot run, and why. */
export interface NoRun {
  none: string;
}

/** The fields Codex 0.169 requires of a model catalog entry; apply_patch_tool_type makes it offer apply_patch. */
const CODEX_MODEL = {
  slug: 'mock-model',
  display_name: 'Mock',
  description: 'the scripted test model',
  default_reasoning_level: 'medium',
  supported_reasoning_levels: [{ effort: 'medium', description: 'medium' }],
  shell_type: 'shell_command',
  visibility: 'list',
  supported_in_api: true,
  priority: 1,
  apply_patch_tool_type: 'freeform',
  context_window: 272000,
  truncation_policy: { mode: 'tokens', limit: 10000 },
  input_modalities: ['text'],
  supports_parallel_tool_calls: false,
  base_instructions: 'You are a coding agent.',
  support_verbosity: true,
  experimental_supported_tools: [],
};

const rel = (cwd: string, file: string) => path.relative(cwd, file).split(path.sep).join('/');

// Claude Code 2.1: CLAUDE.md and .claude/settings.json.
const claude: VendorRun = {
  title: 'CLAUDE.md and .claude/settings.json; warned before Write',
  command: 'claude -p',
  shell: (command) => ({ tool: 'Bash', args: { command, description: 'run it' } }),
  write: (_cwd, file, content) => ({ tool: 'Write', args: { file_path: file, content } }),
  // Claude Code writes only a file it has read.
  edit: (_cwd, file, from, to) => [
    { tool: 'Read', args: { file_path: file } },
    { tool: 'Write', args: { file_path: file, content: fs.readFileSync(file, 'utf8').replace(from, to) } },
  ],
  launch: ({ home, serverUrl, prompt }) => ({
    bin: agentBin('claude'),
    args: ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash', 'Read', 'Write'],
    env: { HOME: home, ANTHROPIC_BASE_URL: serverUrl, ANTHROPIC_API_KEY: 'dummy' },
  }),
};

// Codex: the project trusted in config.toml and the hooks approved (headless: --dangerously-bypass-hook-trust); the
// model known to a catalog of one entry, so Codex offers it apply_patch, its file-writing tool.
const codex: VendorRun = {
  title: 'trusted project, hooks approved: AGENTS.md and .codex/hooks.json; warned before apply_patch',
  command: 'codex exec',
  // exec_command hands a command still running after yield_time_ms (10 s by default) back as a live process to poll;
  // the scripted model does not poll, so it asks for the whole wait.
  shell: (cmd) => ({ tool: 'exec_command', args: { cmd, yield_time_ms: 120_000 } }),
  write: (cwd, file, content) => ({
    tool: 'apply_patch',
    args: { input: `*** Begin Patch\n*** Add File: ${rel(cwd, file)}\n+${content.trimEnd()}\n*** End Patch\n` },
  }),
  edit: (cwd, file, from, to) => [
    {
      tool: 'apply_patch',
      args: { input: `*** Begin Patch\n*** Update File: ${rel(cwd, file)}\n@@\n-${from}\n+${to}\n*** End Patch\n` },
    },
  ],
  launch: ({ home, serverUrl, folders, prompt }) => {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    fs.writeFileSync(path.join(codexHome, 'catalog.json'), JSON.stringify({ models: [CODEX_MODEL] }));
    const config = [
      'model = "mock-model"',
      `model_catalog_json = ${JSON.stringify(path.join(codexHome, 'catalog.json'))}`,
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${serverUrl}/v1"`,
      'env_key = "MOCK_MODEL_KEY"',
      'wire_api = "responses"',
      ...folders.flatMap((f) => [`[projects.${JSON.stringify(f)}]`, 'trust_level = "trusted"']),
      '',
    ];
    fs.writeFileSync(path.join(codexHome, 'config.toml'), config.join('\n'));
    return {
      bin: agentBin('codex'),
      args: ['exec', '--json', '--dangerously-bypass-hook-trust', prompt],
      env: { HOME: home, CODEX_HOME: codexHome, MOCK_MODEL_KEY: 'dummy' },
    };
  },
};

// Copilot CLI 1.0 runs .claude/settings.json as well as its own .github/hooks/agentsync.json, so its test also shows
// that every event acts once, as copilot (one session, the stop gate blocks once, no hook acts as claude), also when
// AGENTSYNC_AGENT names copilot: both packs then name the same agent, and the Claude pack must still step aside, or the
// session restarts and the stop gate's marker is spent by the second run.
const copilot: VendorRun = {
  title: 'both packs present: acts once as copilot; warned before edit',
  command: 'copilot -p',
  variants: [{ title: 'AGENTSYNC_AGENT=copilot', env: { AGENTSYNC_AGENT: 'copilot' } }],
  shell: (command) => ({ tool: 'bash', args: { command, description: 'run it' } }),
  write: (_cwd, file, content) => ({ tool: 'create', args: { path: file, file_text: content } }),
  edit: (_cwd, file, from, to) => [{ tool: 'edit', args: { path: file, old_str: from, new_str: to } }],
  launch: ({ home, serverUrl, prompt }) => ({
    bin: agentBin('copilot'),
    args: ['-p', prompt, '--allow-all-tools', '--output-format', 'json', '--trust-folder'],
    env: {
      HOME: home,
      COPILOT_HOME: path.join(home, '.copilot'),
      COPILOT_PROVIDER_BASE_URL: `${serverUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'dummy',
      COPILOT_MODEL: 'gpt-4.1',
    },
  }),
};

// Gemini CLI 0.61, in a trusted folder: BeforeTool reads no context, so the radar's warning for write_file comes with
// the tool's result (AfterTool); AfterAgent blocks the stop.
const gemini: VendorRun = {
  title: 'GEMINI.md and .gemini/settings.json; warned with the result of write_file',
  command: 'gemini -p',
  shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'run it' } }),
  write: (_cwd, file, content) => ({ tool: 'write_file', args: { file_path: file, content } }),
  edit: (_cwd, file, from, to) => [
    { tool: 'write_file', args: { file_path: file, content: fs.readFileSync(file, 'utf8').replace(from, to) } },
  ],
  launch: ({ home, serverUrl, prompt }) => {
    const settings = path.join(home, '.gemini');
    fs.mkdirSync(settings, { recursive: true });
    fs.writeFileSync(path.join(settings, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
    return {
      bin: agentBin('gemini'),
      args: ['-p', prompt, '--yolo', '--output-format', 'stream-json', '-m', 'gemini-2.5-flash'],
      env: { HOME: home, GOOGLE_GEMINI_BASE_URL: serverUrl, GEMINI_API_KEY: 'dummy', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    };
  },
};

// opencode 1.18: AGENTS.md and the plugin AgentSync writes (.opencode/plugins/agentsync.js): the briefing in the system
// prompt, the radar's warning in front of the edit's result.
const opencode: VendorRun = {
  title: 'AGENTS.md and the plugin; warned in front of the result of write',
  command: 'opencode run',
  shell: (command) => ({ tool: 'bash', args: { command, description: 'run it' } }),
  write: (_cwd, file, content) => ({ tool: 'write', args: { filePath: file, content } }),
  edit: (_cwd, file, from, to) => [{ tool: 'write', args: { filePath: file, content: fs.readFileSync(file, 'utf8').replace(from, to) } }],
  launch: ({ home, serverUrl, prompt }) => {
    const config = path.join(home, '.config', 'opencode');
    fs.mkdirSync(config, { recursive: true });
    fs.writeFileSync(
      path.join(config, 'opencode.json'),
      JSON.stringify({
        model: 'mock/mock-model',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: `${serverUrl}/v1`, apiKey: 'dummy' },
            models: { 'mock-model': { name: 'Mock', tool_call: true } },
          },
        },
        permission: { bash: 'allow', edit: 'allow' },
        autoupdate: false,
        share: 'disabled',
      }),
    );
    return {
      bin: agentBin('opencode'),
      args: ['run', prompt],
      env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), OPENCODE_DISABLE_MODELS_FETCH: 'true' },
    };
  },
};

export const VENDOR_RUNS: { [K in VendorId]: VendorRun | NoRun } = {
  claude,
  codex,
  cursor: { none: 'Cursor ships no CLI on npm that runs headless against a custom model endpoint' },
  copilot,
  gemini,
  opencode,
};

/** The run of a vendor the tier can run (throws for one it cannot). */
export function runOf(id: VendorId): VendorRun {
  const r = VENDOR_RUNS[id];
  if ('none' in r) throw new Error(`${id}: ${r.none}`);
  return r;
}
