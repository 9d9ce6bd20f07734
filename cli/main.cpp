// bigmul: multiplies two integers exactly. See `bigmul --help`.
#include "cli/app.hpp"

int main(int argc, char** argv) { return bigmul::cli::run(argc, argv); }
