// A C++ source for the program-text tests: templates, virtual calls, exceptions,
// the standard library's containers (comdats, invoke/landingpad, vtables with
// inrange GEPs, and debug information of classes and namespaces with -g).
#include <vector>
#include <string>
#include <map>
namespace ns {
template <typename T> struct Box { T v; T get() const { return v; } virtual ~Box() {} };
enum class Color : unsigned char { Red = 1, Green = 2 };
struct Base { virtual int f(int x) { return x + 1; } virtual ~Base() = default; };
struct Derived : Base { int f(int x) override { return x * 2; } };
}
using namespace ns;
static int counter = 0;
int use(std::vector<int>& v, const std::string& s) {
  std::map<std::string, int> m;
  for (int x : v) { m[s] += x; counter++; }
  Box<long> b; b.v = 3;
  Derived d; Base* p = &d;
  try { if (v.empty()) throw 5; } catch (int e) { return e; }
  return m[s] + (int)b.get() + p->f(2) + (int)Color::Green;
}
