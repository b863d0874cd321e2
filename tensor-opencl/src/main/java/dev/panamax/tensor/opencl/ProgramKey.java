package dev.panamax.tensor.opencl;

import dev.panamax.tensor.DType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Which generated program a kernel runs in: its family and the dtypes that fix its source (for
 * {@link Family#UNARY} out's then in's; {@link Family#WHERE} the values' then the condition's; the
 * others as their {@link KernelSources} generator reads them). Each program is compiled once per device.
 *
 * @param family the kernel family
 * @param dtypes the dtypes the source is specialised for, in the family's order
 */
record ProgramKey(Family family, List<DType> dtypes) {
    ProgramKey {
        dtypes = List.copyOf(dtypes);
    }

    static ProgramKey of(Family family, DType... dtypes) {
        return new ProgramKey(family, List.of(dtypes));
    }

    ClType type(int i) {
        return ClType.of(dtypes.get(i));
    }

    /** {@code binary f32,f32}: how messages name the program. */
    @Override
    public String toString() {
        return family.label() + " " + dtypes.stream().map(DType::label).collect(Collectors.joining(","));
    }
}
