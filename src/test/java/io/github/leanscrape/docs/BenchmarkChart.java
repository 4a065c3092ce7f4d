package io.github.leanscrape.docs;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.imageio.ImageIO;

/**
 * Draws the README's chart from a JMH result file of {@code ScrapeBenchmark}: bytes and
 * time per scrape (medians of the forks, as the table beside it) against the number of
 * series, Spring Boot's endpoint and the starter, one line per format, both axes on a log
 * scale. Plain Java 2D, so that drawing it needs nothing but the JDK.
 *
 * @author leanscrape
 */
final class BenchmarkChart {

	private static final String[] SERIES = { "1000", "10000", "100000", "1000000" };

	private static final int WIDTH = 1200;

	private static final int HEIGHT = 520;

	private static final String[] FORMATS = { "text", "openmetrics", "protobuf" };

	private static final Color BOOT = new Color(0xC0392B);

	private static final Color LEANSCRAPE = new Color(0x1F7A4D);

	private BenchmarkChart() {
	}

	/**
	 * Draw the chart.
	 * @param results the results
	 * @param file the image file
	 * @throws IOException when the file cannot be written
	 */
	static void write(JmhResults results, Path file) throws IOException {
		BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
		g.setColor(Color.WHITE);
		g.fillRect(0, 0, WIDTH, HEIGHT);
		panel(g, results, 0, "Bytes allocated per scrape (gc.alloc.rate.norm)", true);
		panel(g, results, WIDTH / 2, "Time per scrape (ms)", false);
		g.dispose();
		ImageIO.write(image, "png", file.toFile());
	}

	private static void panel(Graphics2D g, JmhResults results, int x0, String title, boolean bytes) {
		int left = x0 + 80;
		int right = x0 + WIDTH / 2 - 30;
		int top = 50;
		int bottom = HEIGHT - 90;
		List<Line> lines = new ArrayList<>();
		double minX = Double.MAX_VALUE;
		double maxX = 0;
		double minY = Double.MAX_VALUE;
		double maxY = 0;
		for (String benchmark : new String[] { "boot", "leanscrape" }) {
			for (String format : FORMATS) {
				TreeMap<Double, Double> points = new TreeMap<>();
				for (String series : SERIES) {
					JmhResults.Forks forks = results.findOrNull(benchmark,
							Map.of("seriesCount", series, "format", format));
					if (forks != null) {
						points.put(Double.parseDouble(series), bytes ? forks.medianBytes() : forks.medianTime());
					}
				}
				if (points.isEmpty()) {
					continue;
				}
				lines.add(new Line(benchmark, format, points));
				minX = Math.min(minX, points.firstKey());
				maxX = Math.max(maxX, points.lastKey());
				for (double value : points.values()) {
					minY = Math.min(minY, value);
					maxY = Math.max(maxY, value);
				}
			}
		}
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
		g.drawString(title, left, 30);
		if (lines.isEmpty()) {
			return;
		}
		double lowX = Math.floor(Math.log10(minX));
		double highX = Math.ceil(Math.log10(maxX));
		double lowY = Math.floor(Math.log10(minY));
		double highY = Math.ceil(Math.log10(maxY));
		if (highX == lowX) {
			highX++;
		}
		if (highY == lowY) {
			highY++;
		}
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		for (double e = lowY; e <= highY; e++) {
			int y = (int) (bottom - (e - lowY) / (highY - lowY) * (bottom - top));
			g.setColor(new Color(0xDDDDDD));
			g.drawLine(left, y, right, y);
			g.setColor(Color.DARK_GRAY);
			g.drawString(label(Math.pow(10, e), bytes), x0 + 8, y + 4);
		}
		for (double e = lowX; e <= highX; e++) {
			int x = (int) (left + (e - lowX) / (highX - lowX) * (right - left));
			g.setColor(new Color(0xDDDDDD));
			g.drawLine(x, top, x, bottom);
			g.setColor(Color.DARK_GRAY);
			g.drawString(label(Math.pow(10, e), false) + " series", x - 25, bottom + 18);
		}
		g.setColor(Color.BLACK);
		g.drawRect(left, top, right - left, bottom - top);
		int legendY = bottom + 40;
		int legendX = left;
		for (Line line : lines) {
			Color color = line.benchmark.equals("boot") ? BOOT : LEANSCRAPE;
			float[] dash = switch (line.format) {
				case "text" -> null;
				case "openmetrics" -> new float[] { 8, 5 };
				default -> new float[] { 2, 4 };
			};
			g.setColor(color);
			g.setStroke((dash != null) ? new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, dash, 0)
					: new BasicStroke(2.5f));
			int previousX = -1;
			int previousY = -1;
			for (var point : line.points.entrySet()) {
				int x = (int) (left + (Math.log10(point.getKey()) - lowX) / (highX - lowX) * (right - left));
				int y = (int) (bottom - (Math.log10(point.getValue()) - lowY) / (highY - lowY) * (bottom - top));
				g.fillOval(x - 4, y - 4, 8, 8);
				if (previousX >= 0) {
					g.drawLine(previousX, previousY, x, y);
				}
				previousX = x;
				previousY = y;
			}
			g.drawLine(legendX, legendY - 4, legendX + 30, legendY - 4);
			g.setStroke(new BasicStroke(1));
			g.setColor(Color.BLACK);
			String name = (line.benchmark.equals("boot") ? "Spring Boot" : "leanscrape") + " " + line.format;
			g.drawString(name, legendX + 36, legendY);
			legendX += 36 + g.getFontMetrics().stringWidth(name) + 20;
			if (legendX > right - 150) {
				legendX = left;
				legendY += 18;
			}
		}
		g.setStroke(new BasicStroke(1));
	}

	private static String label(double value, boolean bytes) {
		String[] units = bytes ? new String[] { " B", " KB", " MB", " GB" } : new String[] { "", "k", "M", "G" };
		int unit = 0;
		while (value >= 1000 && unit < units.length - 1) {
			value /= 1000;
			unit++;
		}
		String number = (value >= 1) ? Long.toString(Math.round(value)) : Double.toString(value);
		return number + units[unit];
	}

	private record Line(String benchmark, String format, TreeMap<Double, Double> points) {

	}

}
