package dev.panamax.opencl.compute;

import java.util.List;

/**
 * One call of a {@link ReplayPlan}, as a value: the function, its parameters as raw values, the
 * command it belongs to (-1 for the closing marker and flush) and, for a {@link ClCall#SET_ARG},
 * the argument index (else -1).
 *
 * <pre>{@code
 * PlannedCall[call=NDRANGE, command=0, argument=-1, parameters=[queue, kernel, 1, 0, sizes, sizes + 24, 0, 0, 0]]
 * }</pre>
 */
record PlannedCall(ClCall call, int command, int argument, List<Long> parameters) {
    PlannedCall {
        parameters = List.copyOf(parameters);
        if (parameters.size() != call.parameters())
            throw new IllegalArgumentException(call + " takes " + call.parameters() + " parameters, given " + parameters.size());
    }
}
