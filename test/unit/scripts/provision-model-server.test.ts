import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { executable, provisionInChild } from '../../support/provisioning';

// Every case runs against a temporary .tools with stand-in pythons, and with a python3 and python
// first on PATH that refuse to run: nothing is compiled, nothing is fetched.

const script = path.resolve(__dirname, '..', '..', '..', 'scripts', 'provision-model-server.js');
const loadsServer = 'echo 0.3.36';

let workDir: string;
let toolsDir: string;
let env: NodeJS.ProcessEnv;

function pinned(name: 'LLAMA_CPP_PYTHON_VERSION' | 'MODEL_PACKAGE_VERSION'): string {
  return spawnSync(process.execPath, ['-p', `require(${JSON.stringify(script)}).${name}`], { encoding: 'utf8' }).stdout.trim();
}

function fakeModel(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'GGUF');
  return file;
}

function provision(overrides: NodeJS.ProcessEnv = {}) {
  return provisionInChild({ script: 'provision-model-server', fn: 'provisionModelServer', options: { env: { ...env, ...overrides }, toolsDir } })[0];
}

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-model-server-'));
  toolsDir = path.join(workDir, 'tools');
  const binDir = path.join(workDir, 'fake-bin');
  for (const name of ['python3', 'python']) executable(path.join(binDir, name), 'echo "no python here" >&2\nexit 1');
  env = { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('MODEL_SERVER_PYTHON and MODEL_SERVER_MODEL', () => {
  it('are used as they are, without building or fetching anything', () => {
    const python = executable(path.join(workDir, 'my-venv', 'bin', 'python'), loadsServer);
    const model = fakeModel(path.join(workDir, 'models', 'model.gguf'));

    expect(provision({ MODEL_SERVER_PYTHON: python, MODEL_SERVER_MODEL: model })).toEqual({
      path: `${python} -m llama_cpp.server --model ${model}`,
      python,
      model,
      route: 'MODEL_SERVER_PYTHON',
      log: [],
    });
  });

  it('fails naming the variable and the import error when that python cannot load the server', () => {
    const python = executable(path.join(workDir, 'bare-python'), `echo "ModuleNotFoundError: No module named 'llama_cpp'" >&2\nexit 1`);
    const model = fakeModel(path.join(workDir, 'model.gguf'));

    expect(provision({ MODEL_SERVER_PYTHON: python, MODEL_SERVER_MODEL: model }).error).toBe(
      `MODEL_SERVER_PYTHON=${python} cannot load llama_cpp.server: ModuleNotFoundError: No module named 'llama_cpp'`,
    );
  });

  it('fails naming the path when MODEL_SERVER_MODEL names no file', () => {
    const python = executable(path.join(workDir, 'python'), loadsServer);
    const missing = path.join(workDir, 'no-such-model.gguf');

    expect(provision({ MODEL_SERVER_PYTHON: python, MODEL_SERVER_MODEL: missing }).error).toBe(`no model file at ${missing}`);
  });
});

describe('the .tools cache', () => {
  it('uses a finished build and an unpacked model', () => {
    const serverDir = path.join(toolsDir, `llama-cpp-server-${pinned('LLAMA_CPP_PYTHON_VERSION')}-portable`);
    const python = executable(path.join(serverDir, 'bin', 'python'), loadsServer);
    fs.writeFileSync(path.join(serverDir, '.installed'), '');
    const modelDir = path.join(toolsDir, `smollm2-${pinned('MODEL_PACKAGE_VERSION')}`);
    const model = fakeModel(path.join(modelDir, 'SmolLM2-135M-Instruct.gguf'));
    fs.writeFileSync(path.join(modelDir, '.installed'), '');

    expect(provision()).toMatchObject({ python, model, route: 'cached' });
  });

  it('does not take a build without its marker (an interrupted one) for a finished one', () => {
    const serverDir = path.join(toolsDir, `llama-cpp-server-${pinned('LLAMA_CPP_PYTHON_VERSION')}-portable`);
    executable(path.join(serverDir, 'bin', 'python'), loadsServer);

    expect(provision().error).toBe('none of python3, python is Python 3.9 or newer');
  });
});

describe('command line', () => {
  it('prints the command that starts the server, with the model path made absolute', () => {
    const python = executable(path.join(workDir, 'python'), loadsServer);
    fakeModel(path.join(workDir, 'model.gguf'));

    const result = spawnSync(process.execPath, [script], {
      cwd: workDir,
      env: { ...env, MODEL_SERVER_PYTHON: python, MODEL_SERVER_MODEL: './model.gguf' },
      encoding: 'utf8',
    });

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${python} -m llama_cpp.server --model ${path.join(workDir, 'model.gguf')}\n`);
    expect(result.stderr).toContain('route: MODEL_SERVER_PYTHON');
  });
});
