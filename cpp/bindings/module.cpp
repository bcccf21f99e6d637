#include "register.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "Compiled core of chinese_poker (private: use the chinese_poker package).";
  chinese_poker::bindings::register_cards(m);
  chinese_poker::bindings::register_evaluate(m);
  chinese_poker::bindings::register_rules(m);
  chinese_poker::bindings::register_settle(m);
  chinese_poker::bindings::register_arrange(m);
}
