// One register_* function per concept of the core; module.cpp calls them all.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <initializer_list>

namespace chinese_poker::bindings {

void register_cards(pybind11::module_& m);
void register_evaluate(pybind11::module_& m);
void register_rules(pybind11::module_& m);
void register_settle(pybind11::module_& m);
void register_arrange(pybind11::module_& m);

// Checks a batch argument up front, numpy-ufunc style: a C-contiguous uint8 numpy array with `ndim`
// dimensions whose last dimension is one of `last_dims`; TypeError or ValueError naming `name` otherwise.
pybind11::array_t<std::uint8_t> require_card_array(const pybind11::object& obj, const char* name, int ndim,
                                                   std::initializer_list<pybind11::ssize_t> last_dims);

}  // namespace chinese_poker::bindings
