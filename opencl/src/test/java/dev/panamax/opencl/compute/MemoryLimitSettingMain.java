package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;

/** Child JVM of {@link MemoryLimitSettingTest}: asks for the default device and prints what it is told. */
public final class MemoryLimitSettingMain {
    private MemoryLimitSettingMain() {}

    public static void main(String[] args) {
        try {
            System.out.println("device: " + ComputeDevice.systemDefault().info().name());
        } catch (IllegalStateException none) {
            System.out.println("refused: " + none.getMessage());
        }
    }
}
