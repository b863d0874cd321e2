package dev.panamax.compute;

/**
 * One argument of a {@link ComputePipeline}'s function.
 *
 * @param index        its position
 * @param name         its name in the source (empty when the backend cannot tell)
 * @param addressSpace what kind of thing it takes: where it points, VALUE, or an object the API does not bind
 * @param typeName     its type as the source writes it ({@code float*}, {@code int}, {@code float4}, {@code image2d_t})
 * @param valueBytes   for a VALUE, its size in bytes, or -1 when the backend cannot tell
 * @param valueType    for a VALUE, what it holds (the typed setters it takes); NONE otherwise
 */
public record ArgumentInfo(int index, String name, AddressSpace addressSpace, String typeName, long valueBytes, ValueType valueType) {
    /** Whether a buffer is bound to it. */
    public boolean takesBuffer() {
        return addressSpace == AddressSpace.DEVICE || addressSpace == AddressSpace.CONSTANT;
    }

    /** {@code 2 'factor' (float)}. */
    public String describe() {
        if (addressSpace == AddressSpace.UNKNOWN)
            return index + " (the driver gives no argument metadata: its kind and type are not checked)";
        return index + " '" + name + "' (" + typeName + ")";
    }
}
