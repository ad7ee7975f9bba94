#include <cstdio>

int main() {
  std::puts("retort: command shell not built yet");
  return 0;
}
