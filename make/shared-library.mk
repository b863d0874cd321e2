# One recipe for every native library of the build: every .c file of the including directory, plus
# every .c file in $(GEN) when set (generated sources, e.g. MetaABI thunks), into $(OUT)/lib$(NAME).so.
# Portable baseline x86-64: no -march=native; AVX2/F16C paths are chosen at run time.
#
# The including Makefile sets NAME and may set EXTRA_CPPFLAGS, EXTRA_CFLAGS, EXTRA_LDFLAGS, LDLIBS
# and GEN; the Maven build passes OUT (where the library goes) and OBJ (object files).
CC       := gcc
CFLAGS   ?= -O2 -fPIC -std=gnu11 -Wall -Wextra -Wno-unused-parameter
LDFLAGS  ?= -shared
OUT      ?= build
OBJ      ?= build/obj
LIB      := $(OUT)/lib$(NAME).so
SRCS     := $(wildcard *.c)
GENSRCS  := $(if $(GEN),$(wildcard $(GEN)/*.c))
HEADERS  := $(wildcard *.h) $(if $(GEN),$(wildcard $(GEN)/*.h))
INCLUDES := $(if $(GEN),-I$(GEN))
OBJS     := $(SRCS:%.c=$(OBJ)/%.o) $(GENSRCS:$(GEN)/%.c=$(OBJ)/gen/%.o)

$(LIB): $(OBJS)
	@mkdir -p $(OUT)
	$(CC) $(LDFLAGS) $(EXTRA_LDFLAGS) -o $@ $^ $(LDLIBS)

$(OBJ)/%.o: %.c $(HEADERS)
	@mkdir -p $(OBJ)
	$(CC) $(EXTRA_CPPFLAGS) $(INCLUDES) $(CFLAGS) $(EXTRA_CFLAGS) -c -o $@ $<

$(OBJ)/gen/%.o: $(GEN)/%.c $(HEADERS)
	@mkdir -p $(OBJ)/gen
	$(CC) $(EXTRA_CPPFLAGS) $(INCLUDES) $(CFLAGS) $(EXTRA_CFLAGS) -c -o $@ $<

.PHONY: clean
clean:
	rm -rf $(OUT) $(OBJ)
