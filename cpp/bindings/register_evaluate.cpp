#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <vector>
#include <string>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// Returns false (with a Python exception set) unless `obj` is "low" or "second".
bool wheel_from_object(PyObject* obj, Wheel* wheel) {
  if (obj == nullptr) {
    *wheel = Wheel::Low;
    return true;
  }
  if (PyUnicode_Check(obj)) {
    if (PyUnicode_CompareWithASCIIString(obj, "low") == 0) {
      *wheel = Wheel::Low;
      return true;
    }
    if (PyUnicode_CompareWithASCIIString(obj, "second") == 0) {
      *wheel = Wheel::Second;
      return true;
    }
  }
  PyErr_Format(PyExc_ValueError, "wheel must be 'low' or 'second', got %R", obj);
  return false;
}

// Reads 3 or 5 ints from a list or tuple of Python ints (the fast path); false (no exception set) when the
// argument is of another form, which then goes through the card parser.
bool read_int_cards(PyObject* seq, std::uint8_t* out, Py_ssize_t* count, bool* error) {
  if (!PyList_Check(seq) && !PyTuple_Check(seq)) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n != 3 && n != 5) {
    PyErr_Format(PyExc_ValueError, "evaluate takes 3 or 5 cards, got %zd", n);
    *error = true;
    return true;
  }
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t k = 0; k < n; ++k) {
    if (!PyLong_CheckExact(items[k])) return false;
    const long v = PyLong_AsLong(items[k]);
    if (v == -1 && PyErr_Occurred()) PyErr_Clear();
    if (v < 0 || v >= kDeckSize + kMaxJokers) {
      PyErr_Format(PyExc_ValueError, "card at index %zd is %R, not a card code 0..53", k, items[k]);
      *error = true;
      return true;
    }
    out[k] = static_cast<std::uint8_t>(v);
  }
  *count = n;
  return true;
}

PyObject* evaluate_fast(PyObject* /*self*/, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* cards_obj = nullptr;
  PyObject* wheel_obj = nullptr;
  PyObject* suits_obj = nullptr;
  PyObject* jokers_obj = nullptr;
  if (nargs >= 1) cards_obj = args[0];
  if (nargs >= 2) wheel_obj = args[1];
  if (nargs > 2) {
    PyErr_SetString(PyExc_TypeError, "evaluate() takes at most 2 positional arguments (cards, wheel)");
    return nullptr;
  }
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    PyObject* value = args[nargs + k];
    if (PyUnicode_CompareWithASCIIString(name, "wheel") == 0 && wheel_obj == nullptr) {
      wheel_obj = value;
    } else if (PyUnicode_CompareWithASCIIString(name, "cards") == 0 && cards_obj == nullptr) {
      cards_obj = value;
    } else if (PyUnicode_CompareWithASCIIString(name, "extra_suits") == 0 && suits_obj == nullptr) {
      suits_obj = value;
    } else if (PyUnicode_CompareWithASCIIString(name, "jokers") == 0 && jokers_obj == nullptr) {
      jokers_obj = value;
    } else {
      PyErr_Format(PyExc_TypeError, "evaluate() got an unexpected or repeated keyword argument %R", name);
      return nullptr;
    }
  }
  if (cards_obj == nullptr) {
    PyErr_SetString(PyExc_TypeError, "evaluate() missing required argument 'cards'");
    return nullptr;
  }
  Wheel wheel;
  if (!wheel_from_object(wheel_obj, &wheel)) return nullptr;
  unsigned extra_suits = 0;
  if (suits_obj != nullptr) {
    try {
      extra_suits = suit_bits(py::reinterpret_borrow<py::object>(suits_obj), "extra_suits");
    } catch (const py::builtin_exception& e) {
      e.set_error();
      return nullptr;
    }
  }

  int jokers = 0;
  if (jokers_obj != nullptr) {
    const long value = PyLong_Check(jokers_obj) && !PyBool_Check(jokers_obj) ? PyLong_AsLong(jokers_obj) : -1;
    if (value < 0 || value > kMaxJokers) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "jokers must be 0, 1 or 2, got %R", jokers_obj);
      return nullptr;
    }
    jokers = static_cast<int>(value);
  }
  const unsigned pack = make_pack(extra_suits, jokers);

  std::uint8_t cards[5];
  Py_ssize_t n = 0;
  bool error = false;
  if (!read_int_cards(cards_obj, cards, &n, &error)) {
    // Strings, numpy arrays, other iterables: the one card parser, with its precise messages.
    try {
      const std::vector<std::uint8_t> codes = parse_cards_object(cards_obj, extra_suits, jokers);
      if (codes.size() != 3 && codes.size() != 5) {
        PyErr_Format(PyExc_ValueError, "evaluate takes 3 or 5 cards, got %zu", codes.size());
        return nullptr;
      }
      std::copy(codes.begin(), codes.end(), cards);
      n = static_cast<Py_ssize_t>(codes.size());
    } catch (py::error_already_set& e) {
      e.restore();
      return nullptr;
    } catch (const py::type_error& e) {
      // Named after the public function, as every other TypeError of evaluate() is.
      PyErr_Format(PyExc_TypeError, "evaluate: %s", e.what());
      return nullptr;
    } catch (const py::builtin_exception& e) {
      e.set_error();
      return nullptr;
    }
  }
  if (error) return nullptr;
  const CardIssue issue = check_cards_in_pack(cards, static_cast<int>(n), 0, pack);
  if (issue.kind == CardIssueKind::kDuplicate) {
    PyErr_Format(PyExc_ValueError, "card %s at index %d appears %s", format_card(issue.card).c_str(),
                 issue.position, issue.second_position >= 0 ? "three times (the pack holds it twice)" : "twice");
    return nullptr;
  }
  if (issue.kind == CardIssueKind::kOutOfRange) {
    PyErr_Format(PyExc_ValueError, "card %s (code %d) at index %d is a joker the pack does not hold (jokers=%d)",
                 format_card(issue.card).c_str(), issue.card, issue.position, jokers);
    return nullptr;
  }
  Strength s = 0;
  if (jokers != 0) {
    s = evaluate_with_jokers(cards, static_cast<int>(n), wheel);  // the same as below for a row without one
  } else if (n == 5) {
    s = extra_suits != 0 ? evaluate5_in_pack(cards, wheel) : evaluate5(cards, wheel);
  } else {
    s = evaluate3(cards);
  }
  return PyLong_FromUnsignedLong(s);
}

PyMethodDef g_methods[] = {
    {"evaluate", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(evaluate_fast)),
     METH_FASTCALL | METH_KEYWORDS,
     "evaluate(cards, wheel='low', extra_suits='', jokers=0) -> int\n--\n\n"
     "Strength of a 3- or 5-card row: greater is stronger, equal exactly when the rows tie.\n\n"
     "cards: 3 or 5 cards as card codes 0..51, card strings ('As', '10h', 'T\u2665') or one string\n"
     "('As Kd Qh'). wheel: 'low' (A-2-3-4-5 is the lowest straight) or 'second' (just below T-J-Q-K-A).\n"
     "Three-card rows have no straights or flushes; 3- and 5-card strengths share one scale.\n"
     "extra_suits: the suits added to the pack ('s', 'sh'), whose cards may appear twice.\n"
     "jokers: the pack's jokers (0, 1, 2): X1, X2 (codes 52, 53) then stand for the card that makes the\n"
     "row strongest.\n"},
    {nullptr, nullptr, 0, nullptr}};


}  // namespace

// Validates a batch argument: a C-contiguous uint8 array of shape (N, width) with width in `widths`.
py::array_t<std::uint8_t> require_card_array(const py::object& obj, const char* name, int ndim,
                                             std::initializer_list<py::ssize_t> last_dims) {
  if (!py::isinstance<py::array>(obj)) {
    throw py::type_error(std::string(name) + " must be a numpy array of uint8 card codes, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  auto arr = py::reinterpret_borrow<py::array>(obj);
  // By kind and size, not by identity with numpy's uint8 singleton: an unpickled array (from another
  // process, e.g. a Dask worker) carries an equal but distinct dtype object.
  if (arr.dtype().kind() != 'u' || arr.dtype().itemsize() != 1) {
    throw py::type_error(std::string(name) + " must have dtype uint8, got " + std::string(py::str(arr.dtype())));
  }
  if (arr.ndim() != ndim) {
    throw py::value_error(std::string(name) + " must have " + std::to_string(ndim) + " dimensions, got " +
                          std::to_string(arr.ndim()));
  }
  bool last_ok = false;
  std::string allowed;
  for (py::ssize_t d : last_dims) {
    last_ok = last_ok || arr.shape(ndim - 1) == d;
    allowed += (allowed.empty() ? "" : " or ") + std::to_string(d);
  }
  if (!last_ok) {
    throw py::value_error(std::string(name) + " must have " + allowed + " cards per row, got shape (" +
                          std::to_string(arr.shape(0)) + ", " + std::to_string(arr.shape(ndim - 1)) + ")");
  }
  if (!(arr.flags() & py::array::c_style)) {
    throw py::value_error(std::string(name) +
                          " must be C-contiguous; pass numpy.ascontiguousarray(...) to copy it");
  }
  return py::reinterpret_borrow<py::array_t<std::uint8_t>>(arr);
}

std::string shape_of(const py::array& arr) {
  std::string text = "(";
  for (py::ssize_t d = 0; d < arr.ndim(); ++d) text += (d > 0 ? ", " : "") + std::to_string(arr.shape(d));
  return text + (arr.ndim() == 1 ? ",)" : ")");
}

void require_array(const py::object& obj, const char* name, const py::dtype& dtype,
                   const std::vector<py::ssize_t>& shape, const std::string& shape_text) {
  if (!py::isinstance<py::array>(obj)) {
    throw py::type_error(std::string(name) + " must be a numpy array of dtype " + std::string(py::str(dtype)) +
                         " and shape " + shape_text + ", got " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
  }
  const auto arr = py::reinterpret_borrow<py::array>(obj);
  if (!arr.dtype().is(dtype)) {
    throw py::type_error(std::string(name) + " must have dtype " + std::string(py::str(dtype)) + ", got " +
                         std::string(py::str(arr.dtype())));
  }
  bool same = arr.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t d = 0; same && d < shape.size(); ++d) same = arr.shape(static_cast<py::ssize_t>(d)) == shape[d];
  if (!same) throw py::value_error(std::string(name) + " must have shape " + shape_text + ", got " + shape_of(arr));
  if (!(arr.flags() & py::array::c_style)) {
    throw py::value_error(std::string(name) + " must be C-contiguous; pass numpy.ascontiguousarray(...) to copy it");
  }
}

Parallel parallel_from(const py::object& threads) {
  if (PyBool_Check(threads.ptr()) || !PyIndex_Check(threads.ptr())) {
    throw py::type_error("threads must be an int, got " +
                         std::string(py::str(py::type::handle_of(threads).attr("__name__"))));
  }
  const py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(threads.ptr()));
  if (!value) throw py::error_already_set();
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || n < 0 || n > static_cast<long long>(kMaxThreads)) {
    throw py::value_error("threads must be 0 (every available core) or a count 1.." + std::to_string(kMaxThreads) +
                          ", got " + std::string(py::str(value)));
  }
  Parallel parallel;
  parallel.threads = static_cast<unsigned>(n);
  return parallel;
}

void register_evaluate(py::module_& m) {
  if (PyModule_AddFunctions(m.ptr(), g_methods) != 0) throw py::error_already_set();

  m.def(
      "evaluate_batch",
      [](const py::object& cards, const py::object& wheel_obj, const py::object& threads,
         const py::object& extra_suits_obj, int jokers) {
        Wheel wheel;
        if (!PyUnicode_Check(wheel_obj.ptr())) {
          throw py::type_error("wheel must be 'low' or 'second' (a str), got " +
                               std::string(py::str(py::type::handle_of(wheel_obj).attr("__name__"))));
        }
        if (!wheel_from_object(wheel_obj.ptr(), &wheel)) throw py::error_already_set();
        auto arr = require_card_array(cards, "cards", 2, {3, 5});
        const Parallel parallel = parallel_from(threads);
        if (jokers < 0 || jokers > kMaxJokers) throw py::value_error("jokers must be 0, 1 or 2, got " + std::to_string(jokers));
        const unsigned extra_suits = make_pack(suit_bits(extra_suits_obj, "extra_suits"), jokers);
        const auto rows = static_cast<std::size_t>(arr.shape(0));
        const int width = static_cast<int>(arr.shape(1));
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(rows));
        const std::uint8_t* in = arr.data();
        std::int32_t* dst = out.mutable_data();
        CardIssue issue;
        {
          py::gil_scoped_release release;
          issue = evaluate_batch(in, rows, width, wheel, dst, parallel, extra_suits);
        }
        if (issue) raise_card_issue(issue, "row", false);
        return out;
      },
      py::arg("cards"), py::arg("wheel") = "low", py::arg("threads") = 1, py::arg("extra_suits") = "",
      py::arg("jokers") = 0,
      "Strengths of N rows: cards is a C-contiguous uint8 array of shape (N, 5) or (N, 3); returns an int32\n"
      "array of shape (N,). Every row is validated (codes < 52, no card twice); the GIL is released and the\n"
      "rows are spread over `threads` threads (0: every core); an error names the lowest bad row. With\n"
      "extra_suits ('s', 'sh': suits added to the pack) a card of those suits may appear twice in a row;\n"
      "with jokers (1 or 2) a row may hold X1 (52) and X2 (53), valued at its best substitution.");

  m.def(
      "pack_strengths",
      [](int width, const py::object& wheel_obj, const py::object& extra_suits_obj, int jokers) {
        if (width != 3 && width != 5) throw py::value_error("width must be 3 or 5, got " + std::to_string(width));
        Wheel wheel;
        if (!PyUnicode_Check(wheel_obj.ptr())) throw py::type_error("wheel must be 'low' or 'second' (a str)");
        if (!wheel_from_object(wheel_obj.ptr(), &wheel)) throw py::error_already_set();
        if (jokers < 0 || jokers > kMaxJokers) throw py::value_error("jokers must be 0, 1 or 2, got " + std::to_string(jokers));
        const unsigned pack = make_pack(suit_bits(extra_suits_obj, "extra_suits"), jokers);
        std::vector<Strength> all;
        {
          py::gil_scoped_release release;
          all = pack_strengths(width, wheel, pack);
        }
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(all.size()));
        std::int32_t* dst = out.mutable_data();
        for (std::size_t k = 0; k < all.size(); ++k) dst[k] = static_cast<std::int32_t>(all[k]);
        return out;
      },
      py::arg("width"), py::arg("wheel") = "low", py::arg("extra_suits") = "", py::arg("jokers") = 0,
      "Every strength a row of `width` (3 or 5) cards of the pack (extra_suits, jokers) can have under the\n"
      "wheel, ascending (int32): derived by evaluating one row per rank multiset and suit pattern.");

  m.def(
      "row_strengths",
      [](int width, const py::object& wheel_obj) {
        if (width != 3 && width != 5) throw py::value_error("width must be 3 or 5, got " + std::to_string(width));
        Wheel wheel;
        if (!PyUnicode_Check(wheel_obj.ptr())) throw py::type_error("wheel must be 'low' or 'second' (a str)");
        if (!wheel_from_object(wheel_obj.ptr(), &wheel)) throw py::error_already_set();
        const std::vector<Strength>* all = nullptr;
        {
          py::gil_scoped_release release;
          all = &row_strengths(width, wheel);
        }
        py::array_t<std::int32_t> out(static_cast<py::ssize_t>(all->size()));
        std::int32_t* dst = out.mutable_data();
        for (std::size_t k = 0; k < all->size(); ++k) dst[k] = static_cast<std::int32_t>((*all)[k]);
        return out;
      },
      py::arg("width"), py::arg("wheel") = "low",
      "Every strength some row of `width` (3 or 5) cards of some pack the rules allow (up to two added\n"
      "suits, up to two jokers) has under the wheel, ascending (int32): the union of pack_strengths.");
}

}  // namespace chinese_poker::bindings
