#include "mix_kernels.h"
