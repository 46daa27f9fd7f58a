// Compiles the site's wheels to Pyodide's bytecode, so that the browser's Python imports them without
// compiling their sources first (the kernel's `import pyodide_kernel`: 3.5 s from sources, 1.5 s from
// bytecode, measured under Node on the course's two-core machine). lite/build.py runs it with Node:
//
//     node lite/compile.mjs PYODIDE_DIR IN_DIR OUT_DIR
//
// Every wheel of IN_DIR is written to OUT_DIR under the same name, each module compiled by this
// Pyodide's own Python. gamelib's wheel keeps its sources, with the bytecode beside them
// (__pycache__/NAME.cpython-3XX.pyc, "unchecked-hash" files, PEP 552, which Python uses without
// comparing dates with the sources, as unpacking a wheel does not keep them): a student's traceback
// through gamelib shows its lines. The other wheels (IPython, its helpers, the kernel, mpmath, ...) hold
// bytecode in place of their sources (NAME.pyc where NAME.py was), as Pyodide's own packages do: no
// bigger than before, and nothing to compile. A module that does not compile keeps its source.
const [pyodideDir, inDir, outDir] = process.argv.slice(2);
const { loadPyodide } = await import(`${pyodideDir}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
for (const [where, folder] of [["/in", inDir], ["/out", outDir]]) {
  pyodide.FS.mkdir(where);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, where);
}
const report = await pyodide.runPythonAsync(`
import importlib.util, os, py_compile, site, sys, tempfile, warnings, zipfile

warnings.simplefilter("ignore")  # the libraries' own SyntaxWarnings (invalid escapes) are not the build's business
SITE = site.getsitepackages()[0]
done = []
for name in sorted(os.listdir("/in")):
    if not name.endswith(".whl"):
        continue
    compiled = 0
    with zipfile.ZipFile(f"/in/{name}") as wheel, zipfile.ZipFile(f"/out/{name}", "w", zipfile.ZIP_DEFLATED) as out:
        keep_sources = name.startswith("gamelib-")
        for item in wheel.infolist():
            data = wheel.read(item)
            module = item.filename.endswith(".py") and not item.filename.split("/", 1)[0].endswith(".data")
            if not module:
                out.writestr(item, data)
                continue
            with tempfile.TemporaryDirectory() as scratch:
                source = os.path.join(scratch, "module.py")
                with open(source, "wb") as file:
                    file.write(data)
                target = os.path.join(scratch, "module.pyc")
                try:
                    py_compile.compile(source, cfile=target, dfile=os.path.join(SITE, item.filename), doraise=True,
                                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
                except py_compile.PyCompileError:
                    out.writestr(item, data)
                    continue
                with open(target, "rb") as file:
                    bytecode = file.read()
            if keep_sources:
                out.writestr(item, data)
                out.writestr(importlib.util.cache_from_source(item.filename), bytecode)
            else:
                out.writestr(item.filename[:-3] + ".pyc", bytecode)
            compiled += 1
    done.append(f"{name}: {compiled} modules")
f"Python {sys.version.split()[0]}; " + "; ".join(done)
`);
console.log(report);
