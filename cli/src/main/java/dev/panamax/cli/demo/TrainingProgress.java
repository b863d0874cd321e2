package dev.panamax.cli.demo;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress bar on stderr while the demo trains: steps done, steps/s, time left, the latest
 * loss (averaged over the last steps) and validation accuracy. On a terminal it redraws in place;
 * into a file or pipe it writes a line every few seconds instead.
 */
final class TrainingProgress implements TrainingListener, AutoCloseable {
    /** Steps the displayed loss is averaged over. */
    private static final int WINDOW = 20;

    private final ProgressBar bar;
    private final double[] recent = new double[WINDOW];
    private double accuracy = Double.NaN;
    private double loss = Double.NaN;

    TrainingProgress(int steps, PrintStream err) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName("train").setInitialMax(steps).setUnit(" steps", 1)
                .showSpeed().setSpeedUnit(java.time.temporal.ChronoUnit.SECONDS).setMaxRenderedLength(110);
        if (terminal) {
            b.setStyle(ProgressBarStyle.COLORFUL_UNICODE_BAR).setUpdateIntervalMillis(100);
        } else {
            b.setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(2000)
                    .setConsumer(new DelegatingProgressBarConsumer(new ChangedLines(err)::println, 110));
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
        bar.stepTo(step);
        showFigures();
    }

    @Override
    public void evaluated(int step, double accuracy) {
        this.accuracy = accuracy;
        showFigures();
    }

    private void showFigures() {
        bar.setExtraMessage(String.format(Locale.ROOT, " loss %.4f  val acc %s", loss,
                Double.isNaN(accuracy) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * accuracy)));
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
