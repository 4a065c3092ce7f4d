package io.github.leanscrape.docs;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

/**
 * Draws latency percentiles of several scenarios as lines over a logarithmic scale, with
 * nothing but {@code java.awt} (headless) and {@code ImageIO}.
 *
 * @author leanscrape
 */
public final class LatencyChart {

	private static final int WIDTH = 1100;

	private static final int HEIGHT = 650;

	private static final int LEFT = 90;

	private static final int RIGHT = 300;

	private static final int TOP = 70;

	private static final int BOTTOM = 70;

	private LatencyChart() {
	}

	/**
	 * Write the chart.
	 * @param file the PNG file to write
	 * @param title the title
	 * @param subtitle a line under the title
	 * @param columns the labels of the percentiles, left to right
	 * @param series the scenarios, each with one value (in milliseconds) per column
	 * @throws IOException if the file cannot be written
	 */
	public static void write(Path file, String title, String subtitle, List<String> columns, List<Series> series)
			throws IOException {
		BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		try {
			g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
			g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
			g.setColor(Color.WHITE);
			g.fillRect(0, 0, WIDTH, HEIGHT);
			draw(g, title, subtitle, columns, series);
		}
		finally {
			g.dispose();
		}
		ImageIO.write(image, "png", file.toFile());
	}

	private static void draw(Graphics2D g, String title, String subtitle, List<String> columns, List<Series> series) {
		double min = Double.MAX_VALUE;
		double max = 0;
		for (Series each : series) {
			for (double value : each.millis()) {
				min = Math.min(min, Math.max(value, 0.001));
				max = Math.max(max, value);
			}
		}
		int lowDecade = (int) Math.floor(Math.log10(min));
		int highDecade = (int) Math.ceil(Math.log10(max));
		if (highDecade == lowDecade) {
			highDecade++;
		}
		int plotWidth = WIDTH - LEFT - RIGHT;
		int plotHeight = HEIGHT - TOP - BOTTOM;
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
		g.drawString(title, LEFT, 30);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
		g.drawString(subtitle, LEFT, 52);
		// Decades and their 2 and 5 steps.
		for (int decade = lowDecade; decade <= highDecade; decade++) {
			for (int step : new int[] { 1, 2, 5 }) {
				double value = step * Math.pow(10, decade);
				if (Math.log10(value) > highDecade) {
					continue;
				}
				int y = y(value, lowDecade, highDecade, plotHeight);
				g.setColor((step == 1) ? new Color(0xbbbbbb) : new Color(0xe8e8e8));
				g.drawLine(LEFT, y, LEFT + plotWidth, y);
				g.setColor((step == 1) ? Color.BLACK : Color.GRAY);
				String label = millisLabel(value);
				FontMetrics metrics = g.getFontMetrics();
				g.drawString(label, LEFT - 8 - metrics.stringWidth(label), y + 5);
			}
		}
		g.setColor(Color.BLACK);
		g.drawRect(LEFT, TOP, plotWidth, plotHeight);
		for (int i = 0; i < columns.size(); i++) {
			int x = x(i, columns.size(), plotWidth);
			g.setColor(new Color(0xe8e8e8));
			g.drawLine(x, TOP, x, TOP + plotHeight);
			g.setColor(Color.BLACK);
			String label = columns.get(i);
			g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, TOP + plotHeight + 22);
		}
		g.drawString("percentile", LEFT + plotWidth / 2 - 30, TOP + plotHeight + 48);
		Graphics2D rotated = (Graphics2D) g.create();
		rotated.rotate(-Math.PI / 2);
		rotated.drawString("latency (log scale)", -(TOP + plotHeight / 2 + 55), 22);
		rotated.dispose();
		int legendY = TOP + 10;
		for (int s = 0; s < series.size(); s++) {
			Series each = series.get(s);
			g.setColor(each.color());
			g.setStroke(each.dashed()
					? new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, new float[] { 9, 6 }, 0)
					: new BasicStroke(2.5f));
			int previousX = -1;
			int previousY = -1;
			for (int i = 0; i < each.millis().length; i++) {
				int x = x(i, columns.size(), plotWidth);
				int y = y(Math.max(each.millis()[i], 0.001), lowDecade, highDecade, plotHeight);
				if (previousX >= 0) {
					g.drawLine(previousX, previousY, x, y);
				}
				g.fillOval(x - 4, y - 4, 9, 9);
				previousX = x;
				previousY = y;
			}
			int legendX = LEFT + plotWidth + 20;
			g.drawLine(legendX, legendY + s * 26, legendX + 24, legendY + s * 26);
			g.fillOval(legendX + 8, legendY + s * 26 - 4, 9, 9);
			g.setColor(Color.BLACK);
			g.drawString(each.name(), legendX + 32, legendY + s * 26 + 5);
		}
	}

	private static int x(int column, int columns, int plotWidth) {
		return LEFT + (int) Math.round((column + 0.5) * plotWidth / columns);
	}

	private static int y(double value, int lowDecade, int highDecade, int plotHeight) {
		double fraction = (Math.log10(value) - lowDecade) / (highDecade - lowDecade);
		return TOP + plotHeight - (int) Math.round(fraction * plotHeight);
	}

	private static String millisLabel(double millis) {
		if (millis >= 1000) {
			return trim(millis / 1000) + " s";
		}
		if (millis >= 1) {
			return trim(millis) + " ms";
		}
		return trim(millis * 1000) + " µs";
	}

	private static String trim(double value) {
		long rounded = Math.round(value);
		return (Math.abs(value - rounded) < 1e-9) ? Long.toString(rounded) : Double.toString(value);
	}

	/**
	 * One line of the chart.
	 *
	 * @param name the legend
	 * @param color the color of the line
	 * @param dashed whether the line is dashed
	 * @param millis one value per column, in milliseconds
	 */
	public record Series(String name, Color color, boolean dashed, double[] millis) {

	}

}
