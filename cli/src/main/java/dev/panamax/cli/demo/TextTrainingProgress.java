package dev.panamax.cli.demo;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress bar on stderr while the transformer demo trains: steps done, time left, the loss
 * (averaged over the last steps) and tokens/s. On a terminal it redraws in place; into a file or
 * pipe it writes a line every few seconds instead.
 */
final class TextTrainingProgress implements AutoCloseable {
    private static final int WINDOW = 10;

    private final ProgressBar bar;
    private final double[] recent = new double[WINDOW];
    private int seen;

    TextTrainingProgress(long first, long last, PrintStream err) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName("train").setInitialMax(last).startsFrom(first, java.time.Duration.ZERO)
                .setMaxRenderedLength(TrainingProgress.WIDTH);
        if (terminal) b.setStyle(ProgressBarStyle.COLORFUL_UNICODE_BAR).setUpdateIntervalMillis(200);
        else b.setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(2000).setConsumer(new DelegatingProgressBarConsumer(err::println, TrainingProgress.WIDTH));
        this.bar = b.build();
    }

    void stepDone(long step, double loss, double tokensPerSecond) {
        recent[seen++ % WINDOW] = loss;
        double sum = 0;
        int n = Math.min(seen, WINDOW);
        for (int i = 0; i < n; i++) sum += recent[i];
        bar.stepTo(step);
        bar.setExtraMessage(String.format(Locale.ROOT, "loss %.3f %.0f tok/s", sum / n, tokensPerSecond));
    }

    @Override
    public void close() {
        bar.close();
    }
}
