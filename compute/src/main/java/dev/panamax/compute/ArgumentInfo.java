package dev.panamax.compute;

/**
 * One argument of a {@link ComputePipeline}'s function.
 *
 * @param index        its position
 * @param name         its name in the source
 * @param addressSpace where it points, or VALUE
 * @param typeName     its type as the source writes it ({@code float*}, {@code int}, {@code float4})
 * @param valueBytes   for a VALUE, its size in bytes, or -1 when the backend cannot tell (a struct)
 */
public record ArgumentInfo(int index, String name, AddressSpace addressSpace, String typeName, long valueBytes) {
    /** Whether a buffer is bound to it. */
    public boolean takesBuffer() {
        return addressSpace == AddressSpace.DEVICE || addressSpace == AddressSpace.CONSTANT;
    }

    /** {@code 2 'factor' (float)}. */
    public String describe() {
        return index + " '" + name + "' (" + typeName + ")";
    }
}
