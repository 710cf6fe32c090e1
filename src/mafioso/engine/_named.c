/* mafioso.engine._named: builds a named tuple from a tuple of all its fields, for the compiled path.
 *
 * The engine builds a named tuple for every event, prompt, decision and phase of a game. Their own
 * constructors are interpreted Python, so the hot code calls ``tuple.__new__(Event, fields)``
 * instead; from C that is still a generic call of ``tuple``'s slot wrapper, which packs its
 * arguments into a new tuple, slices the class off into another and checks both. ``new(cls, fields)``
 * does only what ``tuple.__new__`` then does for a tuple subclass given an exact tuple: allocate an
 * instance of ``cls`` and copy the fields into it. The result is the same object, field for field.
 * Anything else (not a tuple subclass, fields not an exact tuple) is handed to ``tuple.__new__``.
 * Built only with the compiled modules (setup.py); ``engine.named`` falls back to ``tuple.__new__``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *
named_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "new(cls, fields) takes exactly two arguments");
        return NULL;
    }
    PyObject *cls = args[0];
    PyObject *fields = args[1];
    if (!PyType_Check(cls) || cls == (PyObject *)&PyTuple_Type
            || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type) || !PyTuple_CheckExact(fields)) {
        return PyObject_CallMethod((PyObject *)&PyTuple_Type, "__new__", "OO", cls, fields);
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t size = PyTuple_GET_SIZE(fields);
    PyObject *made = type->tp_alloc(type, size);
    if (made == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        Py_INCREF(field);
        PyTuple_SET_ITEM(made, i, field);
    }
    return made;
}

static PyMethodDef named_methods[] = {
    {"new", (PyCFunction)(void (*)(void))named_new, METH_FASTCALL,
     "new(cls, fields): tuple.__new__(cls, fields) for a tuple subclass and an exact tuple, without a generic call."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef named_module = {
    PyModuleDef_HEAD_INIT, "mafioso.engine._named",
    "Named tuples built from all their fields, as tuple.__new__ builds them, for the compiled path.",
    -1, named_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__named(void)
{
    return PyModule_Create(&named_module);
}
