package dev.panamax.cli.demo;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress bar on stderr while the demo trains: steps done, time left, the latest loss (averaged
 * over the last steps), validation accuracy and steps/s (from the clock since the first step, not from
 * whole elapsed seconds). It fits an 80-column terminal. On a terminal it redraws in place; into a
 * file or pipe it writes a line every few seconds instead.
 */
final class TrainingProgress implements TrainingListener, AutoCloseable {
    /** Steps the displayed loss is averaged over. */
    private static final int WINDOW = 20;
    /** Columns the bar may take: a standard terminal's width. */
    static final int WIDTH = 80;

    private final ProgressBar bar;
    private final double[] recent = new double[WINDOW];
    private double accuracy = Double.NaN;
    private double loss = Double.NaN;
    private long firstStepNanos;
    private int firstStep;
    private double stepsPerSecond = Double.NaN;

    TrainingProgress(int steps, PrintStream err) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName("train").setInitialMax(steps)
                .setMaxRenderedLength(WIDTH);
        if (terminal) {
            b.setStyle(ProgressBarStyle.COLORFUL_UNICODE_BAR).setUpdateIntervalMillis(100);
        } else {
            b.setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(2000)
                    .setConsumer(new DelegatingProgressBarConsumer(new ChangedLines(err)::println, WIDTH));
        }
        this.bar = b.build();
    }

    @Override
    public void stepDone(int step, double loss) {
        recent[(step - 1) % WINDOW] = loss;
        double sum = 0;
        int n = Math.min(step, WINDOW);
        for (int i = 0; i < n; i++) sum += recent[i];
        this.loss = sum / n;
        long now = System.nanoTime();
        if (firstStepNanos == 0) {
            firstStepNanos = now;
            firstStep = step;
        } else if (now > firstStepNanos) {
            stepsPerSecond = (step - firstStep) * 1e9 / (now - firstStepNanos);
        }
        bar.stepTo(step);
        showFigures();
    }

    @Override
    public void evaluated(int step, double accuracy) {
        this.accuracy = accuracy;
        showFigures();
    }

    private void showFigures() {
        bar.setExtraMessage(message(loss, accuracy, stepsPerSecond));
    }

    /** The figures after the bar, e.g. {@code loss 0.4120 acc 92.1% 334/s}; a figure not known yet is "-". */
    static String message(double loss, double accuracy, double stepsPerSecond) {
        return String.format(Locale.ROOT, "loss %s acc %s %s/s",
                Double.isNaN(loss) ? "-" : String.format(Locale.ROOT, "%.4f", loss),
                Double.isNaN(accuracy) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * accuracy),
                Double.isNaN(stepsPerSecond) ? "-" : String.format(Locale.ROOT, "%.0f", stepsPerSecond));
    }

    @Override
    public void close() {
        bar.close();
    }

    /**
     * Into a file or pipe, a line only when it differs from the one before: closing the bar renders
     * its last state once more, which would otherwise end the log with the same line twice.
     */
    private static final class ChangedLines {
        private final PrintStream out;
        private String last;

        ChangedLines(PrintStream out) {
            this.out = out;
        }

        synchronized void println(String line) {
            if (!line.equals(last)) out.println(line);
            last = line;
        }
    }
}
