// Writes every export of the made-up test class into a folder, to look at while editing
// (render_example_gradebook OUT_DIR; then open OUT_DIR/gradebook.html). The class graded under
// the CPU emulation goes to OUT_DIR/emulated/.
#include <fstream>
#include <iostream>

#include "class_fixture.hpp"
#include "exports/exports.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: render_example_gradebook OUT_DIR\n";
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::create_directories(out);
  const auto spec = exports::testing::make_spec();
  const auto outcomes = exports::testing::make_class(spec);
  std::ofstream(out / "gradebook.html", std::ios::binary)
      << exports::gradebook_html(spec, outcomes, "2026-11-22T10:00:00Z");
  std::ofstream(out / "gradebook.csv", std::ios::binary) << exports::gradebook_csv(spec, outcomes);
  std::ofstream(out / "junit.xml", std::ios::binary) << exports::junit_xml(spec, outcomes);
  std::ofstream(out / "results-1.json", std::ios::binary)
      << exports::gradescope_results(spec, outcomes[1]).dump(2) << '\n';
  const auto on_cpu = exports::testing::make_emulated_class(spec);
  std::filesystem::create_directories(out / "emulated");
  std::ofstream(out / "emulated" / "gradebook.html", std::ios::binary)
      << exports::gradebook_html(spec, on_cpu, "2026-11-22T10:00:00Z");
  std::ofstream(out / "emulated" / "gradebook.csv", std::ios::binary)
      << exports::gradebook_csv(spec, on_cpu);
  std::cout << (out / "gradebook.html").string() << '\n';
  return 0;
}
