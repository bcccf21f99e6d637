#include <string>

#include "chinese_poker/cards.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

void register_cards(py::module_& m) {
  m.def("parse_card", &parse_card, py::arg("token"),
        "Card code (0..51) of one token such as 'As', '10h' or 'T\u2665'; -1 when it is not a card.");
  m.def("format_card", &format_card, py::arg("card"), "Canonical text of one card code, e.g. 'As'.");
}

}  // namespace chinese_poker::bindings
