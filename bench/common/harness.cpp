// SPDX-License-Identifier: LGPL-3.0-or-later
#include "harness.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "bigmul/version.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/parallel.hpp"

namespace bigmul::bench {

namespace {

std::string number_json(double v) {
  if (!std::isfinite(v)) return "null";  // JSON has no inf/nan
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

[[noreturn]] void usage(const std::string& program, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\n  shared options: --json FILE  --repetitions N  --min-time SECONDS  --filter REGEX\n",
               program.c_str(), why.c_str());
  std::exit(2);
}

}  // namespace

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

harness::harness(std::string program, int argc, char** argv, std::string default_json)
    : program_(std::move(program)), json_(std::move(default_json)) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(program_, a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--help" || a == "-h") {
        // Never run the benchmark when asked how to run it: print the shared
        // options and where the program's own are described, and stop.
        std::printf("usage: %s [shared options] [own options]\n"
                    "  shared options: --json FILE  --repetitions N  --min-time SECONDS  --filter REGEX\n"
                    "  own options: see the comment at the top of the program's source (bench/)\n",
                    program_.c_str());
        std::exit(0);
      }
      if (a == "--json") json_ = next();
      else if (a == "--repetitions") {
        repetitions_ = std::stoi(next());
        if (*repetitions_ < 1) usage(program_, "--repetitions must be at least 1");
      } else if (a == "--min-time") min_time_ = std::stod(next());
      else if (a == "--filter") {
        filter_text_ = next();
        filter_ = std::regex(filter_text_);
      } else args_.push_back(a);
    } catch (const std::exception& e) {
      usage(program_, "bad value for " + a + " (" + e.what() + ")");
    }
  }
}

std::optional<std::string> harness::value(const std::string& name) const {
  for (std::size_t i = 0; i + 1 < args_.size(); ++i)
    if (args_[i] == name) return args_[i + 1];
  return std::nullopt;
}
double harness::number(const std::string& name, double def) const {
  const auto v = value(name);
  return v ? std::atof(v->c_str()) : def;
}
std::string harness::text(const std::string& name, const std::string& def) const { return value(name).value_or(def); }
bool harness::flag(const std::string& name) const { return std::find(args_.begin(), args_.end(), name) != args_.end(); }

bool harness::selected(const std::string& row_name) const { return !filter_ || std::regex_search(row_name, *filter_); }

timing harness::timing_for(timing d) const {
  if (repetitions_) {
    d.min_runs = *repetitions_;
    d.max_runs = std::max(d.max_runs, d.min_runs);
  }
  if (min_time_) d.min_time = *min_time_;
  return d;
}

void harness::context(const std::string& key, const std::string& value) {
  for (auto& [k, v] : extra_)
    if (k == key) {
      v = json_quote(value);
      return;
    }
  extra_.emplace_back(key, json_quote(value));
}
void harness::context(const std::string& key, double value) {
  for (auto& [k, v] : extra_)
    if (k == key) {
      v = number_json(value);
      return;
    }
  extra_.emplace_back(key, number_json(value));
}

row& harness::add(const std::string& name, const measurement& m) {
  rows_.push_back(row{name, m, {}, {}});
  return rows_.back();
}

std::vector<std::pair<std::string, std::string>> harness::common_context() const {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  std::vector<std::pair<std::string, std::string>> c = {
      {"program", json_quote(program_)},
      {"host_name", json_quote(host)},
      {"cpu_model", json_quote(cpu_model())},
      {"num_cpus", std::to_string(std::thread::hardware_concurrency())},
      {"commit", json_quote(git_commit())},
      {"date", json_quote(now_iso8601())},
      {"gmp_version", json_quote(gmp_version)},
      {"bigmul_version", json_quote(BIGMUL_VERSION_STRING)},
      {"threads", std::to_string(prim::default_threads())},
      {"build_type", json_quote(BIGMUL_BUILD_TYPE)},
      {"ntt_engine", json_quote(detail::ntt_engine_name(detail::ntt_resolve_engine()))},
  };
  if (repetitions_) c.emplace_back("repetitions", std::to_string(*repetitions_));
  if (min_time_) c.emplace_back("min_time", number_json(*min_time_));
  if (filter_) c.emplace_back("filter", json_quote(filter_text_));
  return c;
}

bool harness::write() const {
  if (json_.empty()) return true;
  auto ctx = common_context();
  for (const auto& [k, v] : extra_) {
    bool replaced = false;
    for (auto& [ck, cv] : ctx)
      if (ck == k) cv = v, replaced = true;
    if (!replaced) ctx.emplace_back(k, v);
  }
  std::ostringstream o;
  o << "{\n  \"context\": {\n";
  for (std::size_t i = 0; i < ctx.size(); ++i)
    o << "    " << json_quote(ctx[i].first) << ": " << ctx[i].second << (i + 1 < ctx.size() ? ",\n" : "\n");
  o << "  },\n  \"benchmarks\": [\n";
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const row& r = rows_[i];
    // The unit keeps the numbers readable; consumers convert by time_unit.
    const double s = r.m.real_s;
    const char* unit = s < 1e-5 ? "ns" : s < 1e-2 ? "us" : s < 10 ? "ms" : "s";
    const double scale = unit[0] == 'n' ? 1e9 : unit[0] == 'u' ? 1e6 : unit[0] == 'm' ? 1e3 : 1;
    // A row's "threads" counter (the threads it ran on) stands in Google
    // Benchmark's per-row "threads"; 1 without one.
    double threads = 1;
    for (const auto& [k, v] : r.counters)
      if (k == "threads") threads = v;
    o << "    {\"name\": " << json_quote(r.name) << ", \"run_name\": " << json_quote(r.name)
      << ", \"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, \"threads\": "
      << number_json(threads)
      << ", \"iterations\": " << r.m.iterations << ", \"real_time\": " << number_json(r.m.real_s * scale)
      << ", \"cpu_time\": " << number_json(r.m.cpu_s * scale) << ", \"time_unit\": \"" << unit << "\"";
    for (const auto& [k, v] : r.labels) o << ", " << json_quote(k) << ": " << json_quote(v);
    for (const auto& [k, v] : r.counters) {
      if (k == "threads") continue;  // written above
      o << ", " << json_quote(k) << ": " << number_json(v);
    }
    o << "}" << (i + 1 < rows_.size() ? ",\n" : "\n");
  }
  o << "  ]\n}\n";
  const std::string text = o.str();
  std::ofstream f(json_);
  f << text;
  f.close();
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", program_.c_str(), json_.c_str());
    return false;
  }
  std::printf("# wrote %s\n", json_.c_str());
  return true;
}

std::size_t limbs_for_digits(double digits) {
  return static_cast<std::size_t>(std::ceil(digits * std::log2(10.0) / 64.0));
}

void limbs_to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx) {
  if (rx == radix::binary) {
    mpz_import(out, n, -1, sizeof(limb_t), 0, 0, p);
    return;
  }
  std::string s;
  s.reserve(19 * n + 1);
  char buf[24];
  for (std::size_t i = n; i-- > 0;) {
    std::snprintf(buf, sizeof buf, i + 1 == n ? "%llu" : "%019llu", static_cast<unsigned long long>(p[i]));
    s += buf;
  }
  mpz_set_str(out, s.empty() ? "0" : s.c_str(), 10);
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string machine_description() {
  return cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

std::string git_commit() {
  // A bundle run on another machine (scripts/gpu-check.sh) names the commit
  // it was built from: git there describes a different checkout.
  if (const char* built = std::getenv("BIGMUL_BUILD_COMMIT"); built && *built) return built;
  // The tree the program runs in (a configure-time value would go stale as
  // soon as the next commit lands); the build's commit when git is absent.
  std::string out;
  if (FILE* p = popen("git -C " BIGMUL_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null", "r")) {
    char buf[64];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) out.clear();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (!out.empty()) {
    if (FILE* p = popen("git -C " BIGMUL_SOURCE_DIR " status --porcelain --untracked-files=no 2>/dev/null", "r")) {
      if (std::fgetc(p) != EOF) out += " (modified)";
      pclose(p);
    }
    return out;
  }
  return BIGMUL_GIT_COMMIT;
}

std::string today() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

std::string now_iso8601() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

namespace {
std::FILE* g_log = nullptr;
}

bool open_log(const std::string& path) {
  if (g_log) std::fclose(g_log);
  g_log = std::fopen(path.c_str(), "w");
  return g_log != nullptr;
}

void say(const char* fmt, ...) {
  std::va_list ap;
  va_start(ap, fmt);
  if (g_log) {
    std::va_list copy;
    va_copy(copy, ap);
    std::vfprintf(g_log, fmt, copy);
    va_end(copy);
    std::fflush(g_log);
  }
  std::vprintf(fmt, ap);
  va_end(ap);
  std::fflush(stdout);
}

}  // namespace bigmul::bench
