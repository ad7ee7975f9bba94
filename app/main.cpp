#include "app/cli.h"

int main(int argc, char** argv) {
  return retort::run_cli(argc, argv);
}
