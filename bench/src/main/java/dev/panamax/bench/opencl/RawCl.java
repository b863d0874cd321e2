package dev.panamax.bench.opencl;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Hand-written FFM downcalls into the OpenCL ICD loader: the floor a generated binding is measured
 * against. Each handle is linked once into a {@code static final} field (so the JIT folds it) on
 * the tier opencl.yaml declares for the function: critical for clSetKernelArg, standard for the rest.
 */
final class RawCl {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup CL = SymbolLookup.libraryLookup("libOpenCL.so.1", Arena.global());

    static final MethodHandle clGetPlatformIDs = link("clGetPlatformIDs", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle clGetDeviceIDs = link("clGetDeviceIDs",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle clCreateContext = link("clCreateContext",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle clCreateCommandQueueWithProperties = link("clCreateCommandQueueWithProperties",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle clCreateProgramWithSource = link("clCreateProgramWithSource",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle clBuildProgram = link("clBuildProgram",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle clGetProgramBuildInfo = link("clGetProgramBuildInfo",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle clCreateKernel = link("clCreateKernel", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    static final MethodHandle clCreateBuffer = link("clCreateBuffer",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    static final MethodHandle clSetKernelArg = link("clSetKernelArg",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.critical(false));
    static final MethodHandle clEnqueueNDRangeKernel = link("clEnqueueNDRangeKernel",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle clFinish = link("clFinish", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    static final MethodHandle clReleaseKernel = release("clReleaseKernel");
    static final MethodHandle clReleaseProgram = release("clReleaseProgram");
    static final MethodHandle clReleaseMemObject = release("clReleaseMemObject");
    static final MethodHandle clReleaseCommandQueue = release("clReleaseCommandQueue");
    static final MethodHandle clReleaseContext = release("clReleaseContext");

    private RawCl() {}

    private static MethodHandle link(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = CL.find(name).orElseThrow(() -> new IllegalStateException("libOpenCL.so.1 has no symbol " + name));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    private static MethodHandle release(String name) {
        return link(name, FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }
}
