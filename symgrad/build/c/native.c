/*
 * symgrad's native helper (symgrad/build/c/native.py): loads the plain shared objects symgrad
 * builds and calls their entry points, and keeps the process's SIGINT count.
 *
 * Built once per installation (pip builds it as the extension symgrad.build.c._native), or,
 * when that extension is missing or older than this file, once per cache (native.py). Every
 * kernel symgrad builds is a plain shared object without Python.h: this module is the only
 * C code that speaks Python, so a new function costs one compiler process, not two.
 *
 * The calling convention (symgrad/build/c/adapter.py writes the C side): an entry point
 * `int name__sg_call(void *const *p, const int64_t *n)` receives its pointers in `p` and its
 * integers in `n`, each in its typed signature's order. call(entry, layout, *args) fills both
 * from args as `layout` (bytes, one letter per argument) says:
 *   'r'  a pointer to read: an object with the buffer protocol (contiguous), or an int address
 *   'w'  a pointer to write: the same, and a buffer must be writable
 *   'i'  an integer (int64)
 * holds every buffer for the length of the call, releases the GIL while the entry runs, and
 * returns its status.
 *
 * audit_hook(handler, events) adds a process-wide audit hook that calls handler(event, args)
 * for the named events only (symgrad's compile traces watch file opens and a few others).
 * Python runs its audit hooks for every audited event, id() and a function's __code__
 * included: a hook written in Python cost ~0.15 us on each of those, some 16 per eager
 * step; this filter costs a few string compares.
 *
 * color_columns(what, row_ptr, row_idx, col_ptr, col_idx, order, out) works on the column
 * intersection graph of a sparsity pattern (columns are neighbours when they share a row)
 * without forming it (symgrad/transforms/coloring.py): "degrees" writes each column's number
 * of neighbours, "greedy" colors the columns in `order`, each with the smallest color no
 * neighbour has. Time: the sum over rows of their length squared; memory: one array of
 * columns. The graph of a bundle adjustment's Jacobian has some 60 million edges at 200,000
 * observations, which SciPy's P^T P held in memory.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#define SG_NATIVE_VERSION 4   /* native.py's NATIVE_VERSION: bump both with any change here */
#define SG_STACK_ARGS 48      /* arguments held on the stack; more go to the heap */

typedef int (*sg_entry_t)(void *const *, const int64_t *);

/* An exact numpy.ndarray is read without the buffer protocol (~0.15 us an array less): the
   head of NumPy's PyArrayObject_fields and its flag bits, NumPy's stable ABI since 1.7 (the
   layout extensions compiled against NumPy 1.x still read). Anything else, subclasses
   included, goes through the buffer protocol. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} sg_ndarray;
#define SG_C_CONTIGUOUS 0x0001
#define SG_ALIGNED 0x0100
#define SG_WRITEABLE 0x0400

static PyTypeObject *sg_ndarray_type = NULL;   /* numpy.ndarray, found at import */

struct sg_args {
    void **p;
    int64_t *n;
    Py_buffer *views;
    Py_ssize_t nviews;
};

static void sg_release(struct sg_args *a)
{
    for (Py_ssize_t k = 0; k < a->nviews; k++)
        PyBuffer_Release(&a->views[k]);
    a->nviews = 0;
}

/* Fill a->p, a->n from args as kinds says; 0, or -1 with an exception set (views released). */
static int sg_fill(struct sg_args *a, const char *kinds, PyObject *const *args, Py_ssize_t count)
{
    Py_ssize_t np = 0, ni = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *obj = args[k];
        const char kind = kinds[k];
        if (kind == 'i') {
            const long long v = PyLong_AsLongLong(obj);
            if (v == -1 && PyErr_Occurred())
                goto fail;
            a->n[ni++] = (int64_t)v;
        } else if (kind == 'r' || kind == 'w') {
            if (Py_TYPE(obj) == sg_ndarray_type) {
                const int flags = ((sg_ndarray *)obj)->flags;
                const int need = SG_C_CONTIGUOUS | SG_ALIGNED | (kind == 'w' ? SG_WRITEABLE : 0);
                if ((flags & need) != need) {
                    PyErr_Format(PyExc_ValueError, "argument %zd: %s", k,
                                 !(flags & SG_C_CONTIGUOUS) ? "ndarray is not C-contiguous" :
                                 !(flags & SG_ALIGNED) ? "ndarray is not aligned" :
                                 "buffer source array is read-only");
                    goto fail;
                }
                a->p[np++] = ((sg_ndarray *)obj)->data;
            } else if (PyLong_Check(obj)) {
                void *address = PyLong_AsVoidPtr(obj);
                if (address == NULL && PyErr_Occurred())
                    goto fail;
                a->p[np++] = address;
            } else {
                Py_buffer *view = &a->views[a->nviews];
                if (PyObject_GetBuffer(obj, view, kind == 'w' ? PyBUF_WRITABLE : PyBUF_SIMPLE))
                    goto fail;
                a->nviews++;
                a->p[np++] = view->buf;
            }
        } else {
            PyErr_Format(PyExc_ValueError, "call: layout letter %c at %zd (expected r, w or i)",
                         (int)(unsigned char)kind, k);
            goto fail;
        }
    }
    return 0;
fail:
    sg_release(a);
    return -1;
}

static PyObject *sg_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs < 2 || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "call(entry, layout: bytes, *args)");
        return NULL;
    }
    sg_entry_t fn = (sg_entry_t)PyLong_AsVoidPtr(args[0]);
    if (fn == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "call: the entry point's address is 0");
        return NULL;
    }
    const Py_ssize_t count = nargs - 2;
    if (PyBytes_GET_SIZE(args[1]) != count) {
        PyErr_Format(PyExc_TypeError, "call: the layout has %zd letters, got %zd arguments",
                     PyBytes_GET_SIZE(args[1]), count);
        return NULL;
    }
    void *p_stack[SG_STACK_ARGS];
    int64_t n_stack[SG_STACK_ARGS];
    Py_buffer v_stack[SG_STACK_ARGS];
    struct sg_args a = {p_stack, n_stack, v_stack, 0};
    void *heap = NULL;
    if (count > SG_STACK_ARGS) {
        heap = PyMem_Malloc((size_t)count * (sizeof(void *) + sizeof(int64_t) + sizeof(Py_buffer)));
        if (heap == NULL)
            return PyErr_NoMemory();
        a.views = (Py_buffer *)heap;
        a.p = (void **)(a.views + count);
        a.n = (int64_t *)(a.p + count);
    }
    int status = -1;
    if (sg_fill(&a, PyBytes_AS_STRING(args[1]), args + 2, count) == 0) {
        Py_BEGIN_ALLOW_THREADS
        status = fn((void *const *)a.p, a.n);
        Py_END_ALLOW_THREADS
        sg_release(&a);
    }
    PyMem_Free(heap);
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(status);
}

/* The address of an object's buffer (the overlap checks of out=). */
static PyObject *sg_address(PyObject *self, PyObject *obj)
{
    (void)self;
    if (Py_TYPE(obj) == sg_ndarray_type)
        return PyLong_FromVoidPtr(((sg_ndarray *)obj)->data);
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE))
        return NULL;
    PyObject *address = PyLong_FromVoidPtr(view.buf);
    PyBuffer_Release(&view);
    return address;
}

static PyObject *sg_load(PyObject *self, PyObject *path)
{
    (void)self;
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes))
        return NULL;
    void *handle;
    Py_BEGIN_ALLOW_THREADS
    handle = dlopen(PyBytes_AS_STRING(bytes), RTLD_NOW | RTLD_LOCAL);
    Py_END_ALLOW_THREADS
    Py_DECREF(bytes);
    if (handle == NULL) {
        const char *why = dlerror();
        PyErr_Format(PyExc_OSError, "cannot load %R: %s", path, why ? why : "dlopen failed");
        return NULL;
    }
    return PyLong_FromVoidPtr(handle);
}

static PyObject *sg_symbol(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *handle_obj;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os:symbol", &handle_obj, &name))
        return NULL;
    void *handle = PyLong_AsVoidPtr(handle_obj);
    if (handle == NULL && PyErr_Occurred())
        return NULL;
    dlerror();
    void *address = dlsym(handle, name);
    if (address == NULL) {
        const char *why = dlerror();
        PyErr_Format(PyExc_OSError, "no symbol %s: %s", name, why ? why : "it is NULL");
        return NULL;
    }
    return PyLong_FromVoidPtr(address);
}

/* ---------------------------------------------------------------------- the SIGINT count
 * Compiled loops poll the count after each step and stop once it differs from its value when
 * their call began (symgrad/codegen/c/interrupt.py). The handler increments it after calling
 * the handler it replaced (CPython's), so the signal is recorded for Python before any loop
 * stops because of it: the interrupted call then finds the KeyboardInterrupt pending.
 */

/* The loops read the count as an int: sig_atomic_t must be one. */
typedef char sg_sig_atomic_is_int[(sizeof(sig_atomic_t) == sizeof(int) &&
                                   (sig_atomic_t)-1 < 0) ? 1 : -1];

static volatile sig_atomic_t sg_sigints = 0;
static volatile sig_atomic_t sg_zero = 0;   /* a count that never changes */

/* The handler ours chains to, in one of two slots: a new one is written to the slot the
   handler does not read, then published by flipping `sg_current` (a signal arriving during an
   install reads a whole struct, never a half-written one). */
static struct sigaction sg_previous[2];
static volatile sig_atomic_t sg_current = 0;
static pthread_mutex_t sg_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set while ours runs: a handler that saved ours as the one it chains to, and that ours was
   later installed in front of, would otherwise make the chain a cycle. */
static volatile sig_atomic_t sg_running = 0;

static void sg_on_sigint(int sig, siginfo_t *info, void *context)
{
    const struct sigaction *prev = &sg_previous[sg_current];
    if (sg_running)
        return;
    sg_running = 1;
    if (prev->sa_flags & SA_SIGINFO)
        prev->sa_sigaction(sig, info, context);
    else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN)
        prev->sa_handler(sig);
    __sync_synchronize();   /* what that handler stored, before the count changes */
    sg_sigints = sg_sigints + 1;
    sg_running = 0;
}

static int sg_is_ours(const struct sigaction *a)
{
    return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == sg_on_sigint;
}

/* Make sure our handler is SIGINT's, in front of the current one, if the current one is a
   function (under SIG_DFL or SIG_IGN nothing is installed: Ctrl-C keeps its meaning); return
   the count. One system call when ours is there already (the common case). */
static PyObject *sg_sigint_enter(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    struct sigaction now, ours, old;
    if (sigaction(SIGINT, NULL, &now) != 0 || sg_is_ours(&now) ||
            (!(now.sa_flags & SA_SIGINFO) &&
             (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)))
        return PyLong_FromLong(sg_sigints);
    pthread_mutex_lock(&sg_lock);
    if (sigaction(SIGINT, NULL, &now) == 0 && !sg_is_ours(&now)) {
        const int slot = !sg_current;
        sg_previous[slot] = now;
        sg_current = slot;
        memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = sg_on_sigint;
        ours.sa_mask = now.sa_mask;
        /* CPython's flags (SA_ONSTACK; no SA_RESTART, so that blocking calls still return
           EINTR for Python to see the signal) */
        ours.sa_flags = SA_SIGINFO | (now.sa_flags & (SA_ONSTACK | SA_RESTART));
        if (sigaction(SIGINT, &ours, &old) == 0 && (old.sa_handler != now.sa_handler ||
                                                    old.sa_flags != now.sa_flags))
            sigaction(SIGINT, &old, NULL);   /* someone else changed it meanwhile: theirs */
    }
    pthread_mutex_unlock(&sg_lock);
    return PyLong_FromLong(sg_sigints);
}

static PyObject *sg_sigint_address(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyLong_FromVoidPtr((void *)&sg_sigints);
}

static PyObject *sg_zero_address(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyLong_FromVoidPtr((void *)&sg_zero);
}

/* The audit filter: the handler and the event names it asked for (set once, kept for the
   process's life, as the hook itself is). */
static PyObject *sg_audit_handler = NULL;
static char **sg_audit_names = NULL;
static Py_ssize_t sg_audit_count = 0;

static int sg_audit(const char *event, PyObject *args, void *unused)
{
    (void)unused;
    for (Py_ssize_t i = 0; i < sg_audit_count; i++) {
        if (strcmp(event, sg_audit_names[i]) == 0) {
            PyObject *r = PyObject_CallFunction(sg_audit_handler, "sO", event, args);
            if (r == NULL)
                return -1;
            Py_DECREF(r);
            return 0;
        }
    }
    return 0;
}

static PyObject *sg_audit_hook(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *handler, *events;
    if (!PyArg_ParseTuple(args, "OO!:audit_hook", &handler, &PyTuple_Type, &events))
        return NULL;
    if (sg_audit_handler != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "audit_hook: installed already");
        return NULL;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(events);
    char **names = PyMem_RawCalloc((size_t)n + 1, sizeof(char *));
    if (names == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(events, i));
        if (name == NULL || (names[i] = PyMem_RawMalloc(strlen(name) + 1)) == NULL) {
            for (Py_ssize_t j = 0; j < i; j++)
                PyMem_RawFree(names[j]);
            PyMem_RawFree(names);
            return name == NULL ? NULL : PyErr_NoMemory();
        }
        strcpy(names[i], name);
    }
    /* (the hook first: until the names are set it calls nothing) */
    if (PySys_AddAuditHook(sg_audit, NULL) < 0) {
        for (Py_ssize_t j = 0; j < n; j++)
            PyMem_RawFree(names[j]);
        PyMem_RawFree(names);
        return NULL;
    }
    Py_INCREF(handler);
    sg_audit_handler = handler;
    sg_audit_names = names;
    sg_audit_count = n;
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------- column coloring */

/* The int64 array an argument holds (C-contiguous; writable if asked), or -1 with an error. */
static Py_ssize_t sg_int64s(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT |
                           (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    const char kind = f[f[0] == '<' || f[0] == '=' || f[0] == '@'];
    if (view->itemsize != 8 || view->ndim != 1 || (kind != 'l' && kind != 'q')) {
        PyErr_Format(PyExc_TypeError, "color_columns: %s must be a 1-d int64 array", name);
        PyBuffer_Release(view);
        return -1;
    }
    return view->len / 8;
}

/* Whether a compressed pattern is well formed: ptr of n + 1 nondecreasing offsets from 0 to
   at most the length of idx, every idx in [0, bound). */
static int sg_compressed_ok(const int64_t *ptr, Py_ssize_t n, const int64_t *idx,
                            Py_ssize_t len, int64_t bound)
{
    if (ptr[0] != 0 || ptr[n] > len)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (ptr[i + 1] < ptr[i])
            return 0;
    for (int64_t k = 0; k < ptr[n]; k++)
        if (idx[k] < 0 || idx[k] >= bound)
            return 0;
    return 1;
}

static void sg_color(int greedy, const int64_t *rp, const int64_t *ri, const int64_t *cp,
                     const int64_t *ci, const int64_t *order, Py_ssize_t n_order,
                     int64_t *out, int64_t *mark)
{
    for (Py_ssize_t t = 0; t < n_order; t++) {
        const int64_t v = greedy ? order[t] : t;
        int64_t degree = 0;
        if (!greedy)
            mark[v] = v;                       /* (not its own neighbour) */
        for (int64_t a = cp[v]; a < cp[v + 1]; a++) {
            const int64_t r = ci[a];
            for (int64_t b = rp[r]; b < rp[r + 1]; b++) {
                const int64_t k = ri[b];
                if (greedy) {
                    if (out[k] >= 0)
                        mark[out[k]] = v;      /* color out[k] is taken for v */
                } else if (mark[k] != v) {
                    mark[k] = v;
                    degree++;
                }
            }
        }
        if (greedy) {
            int64_t c = 0;
            while (mark[c] == v)
                c++;
            out[v] = c;
        } else {
            out[v] = degree;
        }
    }
}

static PyObject *sg_color_columns(PyObject *self, PyObject *args)
{
    (void)self;
    const char *what;
    PyObject *objs[6];
    if (!PyArg_ParseTuple(args, "sOOOOOO:color_columns", &what, &objs[0], &objs[1], &objs[2],
                          &objs[3], &objs[4], &objs[5]))
        return NULL;
    const int greedy = strcmp(what, "greedy") == 0;
    if (!greedy && strcmp(what, "degrees") != 0) {
        PyErr_Format(PyExc_ValueError, "color_columns: what must be 'degrees' or 'greedy'");
        return NULL;
    }
    static const char *names[6] = {"row_ptr", "row_idx", "col_ptr", "col_idx", "order", "out"};
    Py_buffer views[6];
    Py_ssize_t lens[6];
    int held = 0, ok = 1;
    for (; held < 6; held++)
        if ((lens[held] = sg_int64s(objs[held], &views[held], held == 5, names[held])) < 0)
            break;
    int64_t *p[6];
    for (int i = 0; i < held; i++)
        p[i] = (int64_t *)views[i].buf;
    const Py_ssize_t rows = lens[0] - 1, cols = lens[2] - 1;
    int64_t *mark = NULL;
    if (held < 6) {
        ok = 0;
    } else if (rows < 0 || cols < 0 || lens[5] != cols ||
               !sg_compressed_ok(p[0], rows, p[1], lens[1], cols) ||
               !sg_compressed_ok(p[2], cols, p[3], lens[3], rows)) {
        PyErr_SetString(PyExc_ValueError, "color_columns: not a pattern's CSR and CSC arrays");
        ok = 0;
    } else {
        for (Py_ssize_t t = 0; ok && t < lens[4]; t++)
            ok = p[4][t] >= 0 && p[4][t] < cols;
        for (Py_ssize_t c = 0; ok && greedy && c < cols; c++)
            ok = p[5][c] >= -1 && p[5][c] < cols;     /* (colors index the marks) */
        if (!ok)
            PyErr_SetString(PyExc_ValueError, "color_columns: order must hold columns, and "
                            "out (greedy) colors in [0, columns) or -1");
        if (ok && (mark = PyMem_Malloc(((size_t)cols + 1) * sizeof(int64_t))) == NULL) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    if (ok) {
        for (Py_ssize_t c = 0; c <= cols; c++)
            mark[c] = -1;
        Py_BEGIN_ALLOW_THREADS
        sg_color(greedy, p[0], p[1], p[2], p[3], p[4], greedy ? lens[4] : cols, p[5], mark);
        Py_END_ALLOW_THREADS
    }
    PyMem_Free(mark);
    for (int i = 0; i < held; i++)
        PyBuffer_Release(&views[i]);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef sg_methods[] = {
    {"call", (PyCFunction)(void (*)(void))sg_call, METH_FASTCALL,
     "call(entry, layout, *args) -> status: run an entry point (see the module's docs)."},
    {"address", sg_address, METH_O, "address(buffer) -> int: where its memory starts."},
    {"load", sg_load, METH_O, "load(path) -> handle: dlopen a shared object (RTLD_LOCAL)."},
    {"symbol", sg_symbol, METH_VARARGS, "symbol(handle, name) -> int: dlsym."},
    {"sigint_enter", sg_sigint_enter, METH_NOARGS,
     "sigint_enter() -> int: install the SIGINT counter if needed; the count now."},
    {"sigint_address", sg_sigint_address, METH_NOARGS, "The SIGINT count's address."},
    {"zero_address", sg_zero_address, METH_NOARGS, "The address of a count that stays 0."},
    {"audit_hook", sg_audit_hook, METH_VARARGS,
     "audit_hook(handler, events): an audit hook calling handler for these events only."},
    {"color_columns", sg_color_columns, METH_VARARGS,
     "color_columns(what, row_ptr, row_idx, col_ptr, col_idx, order, out): 'degrees' or "
     "'greedy' on the column intersection graph."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef sg_module = {
    PyModuleDef_HEAD_INIT, "_native", "symgrad's native helper (see native.c).", -1, sg_methods,
    NULL, NULL, NULL, NULL,
};

/* numpy.ndarray, if it is a type whose instances are at least as large as the head read
   above; else NULL (every array then goes through the buffer protocol). */
static PyTypeObject *sg_find_ndarray(void)
{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL)
        return NULL;
    PyObject *type = PyObject_GetAttrString(numpy, "ndarray");
    Py_DECREF(numpy);
    if (type == NULL)
        return NULL;
    if (!PyType_Check(type) ||
            ((PyTypeObject *)type)->tp_basicsize < (Py_ssize_t)sizeof(sg_ndarray)) {
        Py_DECREF(type);
        return NULL;
    }
    return (PyTypeObject *)type;   /* (a reference kept for the process's life) */
}

PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&sg_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "VERSION", SG_NATIVE_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    sg_ndarray_type = sg_find_ndarray();
    PyErr_Clear();   /* (no NumPy: the buffer protocol for all) */
    return m;
}
