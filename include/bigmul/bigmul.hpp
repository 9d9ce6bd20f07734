// Everything in bigmul's public C++ API.
#pragma once

#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/modular.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
