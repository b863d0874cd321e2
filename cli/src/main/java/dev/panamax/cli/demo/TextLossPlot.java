package dev.panamax.cli.demo;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;

/** The transformer demo's loss curve: the training loss of each step and the final validation loss, in nats per character. */
final class TextLossPlot {
    private TextLossPlot() {}

    static BufferedImage render(double[] losses, long firstStep, double validationLoss, String title) {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
        XYSeries train = new XYSeries("training loss (batch)");
        for (int i = 0; i < losses.length; i++) train.add(firstStep + i + 1, losses[i]);
        XYSeries validation = new XYSeries("validation loss (end)");
        if (!Double.isNaN(validationLoss)) validation.add(firstStep + losses.length, validationLoss);
        XYSeriesCollection series = new XYSeriesCollection(train);
        series.addSeries(validation);
        NumberAxis lossAxis = new NumberAxis("cross-entropy (nats per character)");
        lossAxis.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
        lines.setSeriesPaint(0, new Color(0x1f77b4));
        lines.setSeriesStroke(0, new BasicStroke(1f));
        lines.setSeriesPaint(1, new Color(0xd62728));
        lines.setSeriesShapesVisible(1, true);
        XYPlot plot = new XYPlot(series, new NumberAxis("step"), lossAxis, lines);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT.deriveFont(14f), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        BufferedImage image = new BufferedImage(800, 500, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            chart.draw(g, new Rectangle2D.Double(0, 0, 800, 500));
        } finally {
            g.dispose();
        }
        return image;
    }
}
