package dev.panamax.cli.demo;

import dev.panamax.core.io.AtomicFile;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The demo's picture, drawn headless with JFreeChart into one PNG: the training loss per step and
 * the validation accuracy (left) and, for data with two features, the decision regions the model
 * learned with the data's points over them (right).
 */
final class TrainingPlot {
    /** Cells per side of the decision-region grid. */
    static final int GRID = 160;
    /** At most this many points are drawn over the regions (a seeded sample of larger data). */
    static final int MAX_POINTS = 3000;

    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf)};

    private TrainingPlot() {}

    /** Whether {@link #write} draws decision regions for {@code data} (it has two features). */
    static boolean drawsRegions(LabeledData data) {
        return data.d() == 2;
    }

    /** Draws the picture (in memory; {@link #write} puts it in a file). */
    static BufferedImage render(TrainingRun run, LabeledData data, String title) {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
        boolean regions = drawsRegions(data);
        int panel = 640, height = 560;
        BufferedImage image = new BufferedImage(regions ? 2 * panel : panel, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            lossChart(run, title).draw(g, new Rectangle2D.Double(0, 0, panel, height));
            if (regions) regionChart(run.classifier(), data).draw(g, new Rectangle2D.Double(panel, 0, panel, height));
        } finally {
            g.dispose();
        }
        return image;
    }

    /**
     * Writes {@code image} as a PNG to {@code file} atomically ({@link AtomicFile}: parent directories
     * are created; a directory or device there is refused and left as it is).
     *
     * @throws java.io.UncheckedIOException naming the file and the reason when it cannot be written
     */
    static void write(Path file, BufferedImage image) {
        AtomicFile.write(file, out -> {
            if (!ImageIO.write(image, "png", out)) throw new IOException("no PNG writer in this JDK");
        });
    }

    private static JFreeChart lossChart(TrainingRun run, String title) {
        XYSeries loss = new XYSeries("training loss");
        double[] l = run.losses();
        int every = Math.max(1, l.length / 2000);
        for (int i = 0; i < l.length; i += every) loss.add(i + 1, l[i]);
        XYSeries accuracy = new XYSeries("validation accuracy");
        for (int i = 0; i < run.evaluatedAt().length; i++) accuracy.add(run.evaluatedAt()[i], run.accuracies()[i]);

        NumberAxis steps = new NumberAxis("step");
        NumberAxis lossAxis = new NumberAxis("cross-entropy loss");
        lossAxis.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer lossLine = new XYLineAndShapeRenderer(true, false);
        lossLine.setSeriesPaint(0, PALETTE[0]);
        lossLine.setSeriesStroke(0, new BasicStroke(1f));
        XYPlot plot = new XYPlot(new XYSeriesCollection(loss), steps, lossAxis, lossLine);

        NumberAxis accuracyAxis = new NumberAxis("validation accuracy");
        accuracyAxis.setRange(0, 1.0001);
        plot.setRangeAxis(1, accuracyAxis);
        plot.setDataset(1, new XYSeriesCollection(accuracy));
        plot.mapDatasetToRangeAxis(1, 1);
        XYLineAndShapeRenderer accuracyLine = new XYLineAndShapeRenderer(true, true);
        accuracyLine.setSeriesPaint(0, PALETTE[1]);
        accuracyLine.setSeriesShape(0, new Ellipse2D.Double(-2.5, -2.5, 5, 5));
        plot.setRenderer(1, accuracyLine);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT.deriveFont(14f), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static JFreeChart regionChart(Classifier classifier, LabeledData data) {
        float[] x = data.x();
        double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, minY = Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
        for (int i = 0; i < data.n(); i++) {
            minX = Math.min(minX, x[2 * i]);
            maxX = Math.max(maxX, x[2 * i]);
            minY = Math.min(minY, x[2 * i + 1]);
            maxY = Math.max(maxY, x[2 * i + 1]);
        }
        double padX = Math.max(1e-6, (maxX - minX) * 0.08), padY = Math.max(1e-6, (maxY - minY) * 0.08);
        minX -= padX;
        maxX += padX;
        minY -= padY;
        maxY += padY;
        double cellW = (maxX - minX) / GRID, cellH = (maxY - minY) / GRID;

        float[] grid = new float[2 * GRID * GRID];
        for (int r = 0; r < GRID; r++) {
            for (int c = 0; c < GRID; c++) {
                int i = r * GRID + c;
                grid[2 * i] = (float) (minX + (c + 0.5) * cellW);
                grid[2 * i + 1] = (float) (minY + (r + 0.5) * cellH);
            }
        }
        int[] predicted = classifier.predict(grid);
        double[][] cells = new double[3][GRID * GRID];
        for (int i = 0; i < GRID * GRID; i++) {
            cells[0][i] = grid[2 * i];
            cells[1][i] = grid[2 * i + 1];
            cells[2][i] = predicted[i];
        }
        DefaultXYZDataset regions = new DefaultXYZDataset();
        regions.addSeries("regions", cells);
        XYBlockRenderer blocks = new XYBlockRenderer();
        blocks.setBlockWidth(cellW);
        blocks.setBlockHeight(cellH);
        LookupPaintScale scale = new LookupPaintScale(-0.5, data.classes() - 0.5, Color.WHITE);
        for (int k = 0; k < data.classes(); k++) scale.add(k - 0.5, tint(colorOf(k)));
        blocks.setPaintScale(scale);

        NumberAxis xAxis = new NumberAxis("x[0]"), yAxis = new NumberAxis("x[1]");
        xAxis.setRange(minX, maxX);
        yAxis.setRange(minY, maxY);
        XYPlot plot = new XYPlot(regions, xAxis, yAxis, blocks);

        XYSeriesCollection points = new XYSeriesCollection();
        XYSeries[] byClass = new XYSeries[data.classes()];
        for (int k = 0; k < data.classes(); k++) {
            byClass[k] = new XYSeries("class " + k);
            points.addSeries(byClass[k]);
        }
        int every = Math.max(1, (data.n() + MAX_POINTS - 1) / MAX_POINTS);
        for (int i = 0; i < data.n(); i += every) byClass[(int) data.y()[i]].add(x[2 * i], x[2 * i + 1], false);
        XYLineAndShapeRenderer dots = new XYLineAndShapeRenderer(false, true);
        for (int k = 0; k < data.classes(); k++) {
            dots.setSeriesPaint(k, colorOf(k));
            dots.setSeriesShape(k, new Ellipse2D.Double(-2, -2, 4, 4));
        }
        plot.setDataset(1, points);
        plot.setRenderer(1, dots);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD); // the points over the regions
        blocks.setSeriesVisibleInLegend(0, false);
        plot.setBackgroundPaint(Color.WHITE);
        JFreeChart chart = new JFreeChart("decision regions (" + data.n() + " points)",
                JFreeChart.DEFAULT_TITLE_FONT.deriveFont(14f), plot, data.classes() <= 10);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static Color colorOf(int k) {
        Color base = PALETTE[k % PALETTE.length];
        if (k < PALETTE.length) return base;
        float[] hsb = Color.RGBtoHSB(base.getRed(), base.getGreen(), base.getBlue(), null);
        return Color.getHSBColor((hsb[0] + 0.13f * (k / PALETTE.length)) % 1f, hsb[1], hsb[2]);
    }

    /** {@code c} mixed 75% with white: the region under the points of its class. */
    private static Color tint(Color c) {
        return new Color((c.getRed() + 3 * 255) / 4, (c.getGreen() + 3 * 255) / 4, (c.getBlue() + 3 * 255) / 4);
    }
}
