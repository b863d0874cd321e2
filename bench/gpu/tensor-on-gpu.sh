#!/usr/bin/env bash
# The tensor suite's device figures (DeviceFigures: the opencl backend beside the cpu backend and
# PyTorch; DeviceModelFigures: the demos' models there) on a GPU machine, in one command. It runs from the project root on that machine, with the
# pack made here by the GPU pack script with the bench jar as an extra entry:
#
#   here:        ../shared/gpu/pack.sh bench/target/panamax-bench.jar       (writes .gpu/, ignored by git)
#   GPU machine: bash bench/gpu/tensor-on-gpu.sh                            (carry .gpu; writes to $OUT)
#
# On the GPU machine the opencl backend takes the NVIDIA OpenCL device (-Dpanamax.tensor.device=NVIDIA)
# and peers.py takes PyTorch's CUDA device (torch.cuda.is_available()); the figures are at the
# targets' sizes (--full: 64M-float add, 4096 x 4096 product). Without an NVIDIA driver the same
# command runs on the first OpenCL device (PoCL) and PyTorch on the CPU, and says so.
#
#   bash bench/gpu/tensor-on-gpu.sh [full|quick]     (default full)
#
# Writes to $OUT (else target/gpu-bench): tensor-device.json (the figures), tensor-device.txt (the
# table), machine.txt (GPU, CPU, OpenCL device, PyTorch) and bench.log (progress and errors).
# Environment: PANAMAX_TENSOR_DEVICE (an OpenCL device's index or part of its name), PANAMAX_PYTHON
# (an interpreter with torch and numpy), PANAMAX_BENCH_JAVA_OPTS (more JVM options, e.g.
# -Dpanamax.bench.device.rounds=3), PANAMAX_BENCH_TIMEOUT (seconds, default 540).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
say() { echo "tensor-on-gpu: $*" >&2; }
die() { say "$*"; exit 1; }

size=${1:-full}
case "$size" in
  full) size_args=(--full) ;;
  quick) size_args=() ;;
  *) die "unknown size '$size'; expected full (the targets' sizes) or quick" ;;
esac
out=${OUT:-$root/target/gpu-bench}
mkdir -p "$out" || die "cannot create the output folder $out"
[ -f .gpu/b.tar.xz ] && [ -f .gpu/on-device.sh ] \
  || die "no pack in $root/.gpu; make it here first: ../shared/gpu/pack.sh bench/target/panamax-bench.jar (then carry .gpu)"
tar -tJf .gpu/b.tar.xz ./extra/panamax-bench.jar >/dev/null 2>&1 \
  || die ".gpu/b.tar.xz has no extra/panamax-bench.jar; pack it with: ../shared/gpu/pack.sh bench/target/panamax-bench.jar"

# the OpenCL device: NVIDIA's where its driver is, else the first device (PoCL), saying so
device=${PANAMAX_TENSOR_DEVICE-}
if [ -z "$device" ]; then
  if ls /usr/lib/libnvidia-opencl.so* /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so* /usr/local/nvidia/lib64/libnvidia-opencl.so* >/dev/null 2>&1; then
    device=NVIDIA
  else
    say "no NVIDIA OpenCL driver here: the opencl figures run on the first OpenCL device (PoCL on a machine without a GPU)"
  fi
fi

# PyTorch: the system python3 where it has torch (the GPU machine's has PyTorch CUDA), else the
# suite's own environment under target/pyenv (made on first use where pip can reach a wheel)
python=${PANAMAX_PYTHON-}
if [ -z "$python" ] && command -v python3 >/dev/null && python3 -c 'import torch, numpy' 2>/dev/null; then
  python=$(command -v python3)
fi

# Debian's OpenBLAS 0.3.21 does not recognise Sapphire Rapids and falls back to SSE3 kernels
if [ -z "${OPENBLAS_CORETYPE-}" ] && grep -q -w avx512f /proc/cpuinfo 2>/dev/null; then
  export OPENBLAS_CORETYPE=SkylakeX
fi

java_opts=(--sun-misc-unsafe-memory-access=allow)
[ -n "$device" ] && java_opts+=("-Dpanamax.tensor.device=$device")
[ -n "$python" ] && java_opts+=("-Dpanamax.python=$python")
# shellcheck disable=SC2206  # word splitting of the user's options is intended
java_opts+=(${PANAMAX_BENCH_JAVA_OPTS-})

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo none)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
  echo "opencl device setting: ${device:-(first device)}"
  echo "OPENBLAS_CORETYPE: ${OPENBLAS_CORETYPE:-(unset)}"
  if [ -n "$python" ]; then
    echo "python: $python"
    "$python" -c 'import torch; print("torch", torch.__version__, "cuda available:", torch.cuda.is_available(),
      torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")' 2>&1
  else
    echo "python: the suite's target/pyenv"
  fi
  echo "size: $size"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

# on-device.sh unpacks the pack, points OCL_ICD_VENDORS at NVIDIA's driver, sets $JAVA and $B, and
# evaluates the command it is given
command="\$JAVA ${java_opts[*]@Q} -jar \"\$B/extra/panamax-bench.jar\" tensor --filter '(DeviceFigures|DeviceModelFigures)' ${size_args[*]-} --json ${out@Q}/tensor-device.json"
timeout "${PANAMAX_BENCH_TIMEOUT:-540}" bash .gpu/on-device.sh "$command" > "$out/tensor-device.txt" 2> >(tee "$out/bench.log" >&2)
status=$?
cat "$out/tensor-device.txt"
[ "$status" -eq 124 ] && die "the run passed ${PANAMAX_BENCH_TIMEOUT:-540} s and was stopped; what it wrote is in $out"
[ "$status" -eq 0 ] || die "the run failed (exit $status); its log is $out/bench.log"
say "figures in $out/tensor-device.json and $out/tensor-device.txt"
