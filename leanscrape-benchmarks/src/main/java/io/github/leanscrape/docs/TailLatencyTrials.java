package io.github.leanscrape.docs;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.leanscrape.support.RunRecord;

/**
 * The raw result of the tail-latency experiment: per scenario, pairs of measured windows
 * in one application, one without scraping and one with, and what README and
 * docs/tail-latency.md make of them (a table of medians and ranges over the pairs, and
 * the chart).
 * <p>
 * The file is tab-separated, one window per line, under comment lines ({@code # key:
 * value}) that record the date, the commit, the JDK, the machine, the command and the
 * options of the run.
 *
 * @author leanscrape
 */
public final class TailLatencyTrials {

	/**
	 * The percentiles each window records, as the chart labels them.
	 */
	public static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "p99.99", "max");

	private static final String COLUMNS = "scenario\tlabel\tpair\twindow\trequests\tfailed\tp50_us\tp90_us\tp99_us"
			+ "\tp99.9_us\tp99.99_us\tmax_us\tgc_pauses\tgc_total_ms\tgc_max_ms\tscrapes_ok\tscrapes_503"
			+ "\tscrapes_failed\tscrape_mean_ms\tcpu_ms\tseconds\tload_start\tload_end\thealthy";

	private static final Color[] COLORS = { new Color(0x1f6fd1), new Color(0x2bb3c0), new Color(0x8e44ad),
			new Color(0x27ae60), new Color(0xe66100), new Color(0xc0182a), new Color(0x7f8c8d) };

	private final Map<String, String> header;

	private final List<Window> windows;

	/**
	 * Create trials from what a run recorded.
	 * @param header the run's date, commit, JDK, machine, command and options, in order
	 * @param windows the measured windows
	 */
	public TailLatencyTrials(Map<String, String> header, List<Window> windows) {
		this.header = new LinkedHashMap<>(header);
		this.windows = List.copyOf(windows);
	}

	/**
	 * Read trials from their raw file.
	 * @param file the file
	 * @return the trials
	 * @throws IOException if the file cannot be read
	 */
	public static TailLatencyTrials read(Path file) throws IOException {
		String raw = Files.readString(file, StandardCharsets.UTF_8);
		List<Window> windows = new ArrayList<>();
		for (String line : raw.replace("\r\n", "\n").split("\n")) {
			if (!line.startsWith("# ") && !line.isBlank() && !line.equals(COLUMNS)) {
				windows.add(Window.parse(line));
			}
		}
		return new TailLatencyTrials(RunRecord.comments(raw), windows);
	}

	/**
	 * Write the raw file.
	 * @param file the file
	 * @throws IOException if the file cannot be written
	 */
	public void write(Path file) throws IOException {
		StringBuilder out = new StringBuilder();
		for (Map.Entry<String, String> entry : this.header.entrySet()) {
			out.append("# ").append(entry.getKey()).append(": ").append(entry.getValue()).append('\n');
		}
		out.append(COLUMNS).append('\n');
		for (Window window : this.windows) {
			out.append(window.line()).append('\n');
		}
		Files.writeString(file, out, StandardCharsets.UTF_8);
	}

	/**
	 * Return what the run recorded about itself.
	 * @return date, commit, JDK, machine, command and options
	 */
	public Map<String, String> header() {
		return this.header;
	}

	/**
	 * Return the table of the scenarios: for each, medians over its pairs of windows, and
	 * the ranges of the ratios.
	 * @return the markdown table
	 */
	public String table() {
		StringBuilder md = new StringBuilder();
		md.append("| Scenario | pairs | p99: alone → scraped | p99 ratio: median (pairs) | p99.9: alone → scraped")
			.append(" | p99.9 ratio: median (pairs) | scrape: ms | application CPU per scrape: ms")
			.append(" | GC pauses per window: alone / scraped | scrapes: 200 / 503 / failed |\n");
		md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
		for (String scenario : scenarios()) {
			List<Pair> pairs = pairs(scenario);
			List<Double> p99Alone = new ArrayList<>();
			List<Double> p99Scraped = new ArrayList<>();
			List<Double> p99Ratios = new ArrayList<>();
			List<Double> p999Alone = new ArrayList<>();
			List<Double> p999Scraped = new ArrayList<>();
			List<Double> p999Ratios = new ArrayList<>();
			List<Double> scrapeMillis = new ArrayList<>();
			List<Double> cpuPerScrape = new ArrayList<>();
			List<Double> pausesAlone = new ArrayList<>();
			List<Double> pausesScraped = new ArrayList<>();
			long ok = 0;
			long rejected = 0;
			long failed = 0;
			boolean healthy = true;
			for (Pair pair : pairs) {
				p99Alone.add(pair.alone.millis(2));
				p99Scraped.add(pair.scraped.millis(2));
				p99Ratios.add(pair.scraped.millis(2) / pair.alone.millis(2));
				p999Alone.add(pair.alone.millis(3));
				p999Scraped.add(pair.scraped.millis(3));
				p999Ratios.add(pair.scraped.millis(3) / pair.alone.millis(3));
				if (pair.scraped.scrapesOk > 0) {
					scrapeMillis.add(pair.scraped.scrapeMeanMillis);
				}
				long scrapes = pair.scraped.scrapesOk + pair.scraped.scrapesRejected + pair.scraped.scrapesFailed;
				if (scrapes > 0) {
					double aloneCpu = pair.alone.cpuMillis * pair.scraped.seconds / pair.alone.seconds;
					cpuPerScrape.add((pair.scraped.cpuMillis - aloneCpu) / scrapes);
				}
				pausesAlone.add((double) pair.alone.gcPauses);
				pausesScraped.add((double) pair.scraped.gcPauses);
				ok += pair.scraped.scrapesOk;
				rejected += pair.scraped.scrapesRejected;
				failed += pair.scraped.scrapesFailed;
				healthy &= pair.alone.healthy && pair.scraped.healthy;
			}
			Window first = pairs.get(0).scraped;
			md.append(String.format(Locale.ROOT,
					"| %s%s | %d | %s → %s ms | %s | %s → %s ms | %s | %s | %s | %s / %s | %d / %d / %d |\n",
					first.label, healthy ? "" : " (the application failed)", pairs.size(),
					millis(JmhResults.median(p99Alone)), millis(JmhResults.median(p99Scraped)), ratio(p99Ratios),
					millis(JmhResults.median(p999Alone)), millis(JmhResults.median(p999Scraped)), ratio(p999Ratios),
					scrapeMillis.isEmpty() ? "–" : millis(JmhResults.median(scrapeMillis)),
					cpuPerScrape.isEmpty() ? "–" : millis(JmhResults.median(cpuPerScrape)),
					count(JmhResults.median(pausesAlone)), count(JmhResults.median(pausesScraped)), ok, rejected,
					failed));
		}
		return md.toString();
	}

	/**
	 * Return the chart's lines: every window without scraping together, then each
	 * scenario's scraped windows, each percentile the median over the windows.
	 * @return the lines
	 */
	public List<LatencyChart.Series> chartSeries() {
		List<LatencyChart.Series> series = new ArrayList<>();
		List<Window> alone = new ArrayList<>();
		for (Window window : this.windows) {
			if (!window.scraped) {
				alone.add(window);
			}
		}
		series.add(new LatencyChart.Series("no scrape (every scenario's)", new Color(0x333333), true, medians(alone)));
		int color = 0;
		for (String scenario : scenarios()) {
			List<Window> scraped = new ArrayList<>();
			for (Window window : this.windows) {
				if (window.scraped && window.scenario.equals(scenario)) {
					scraped.add(window);
				}
			}
			series.add(new LatencyChart.Series(scraped.get(0).label, COLORS[color++ % COLORS.length], false,
					medians(scraped)));
		}
		return series;
	}

	/**
	 * Draw the chart.
	 * @param file the PNG file to write
	 * @throws IOException if the file cannot be written
	 */
	public void chart(Path file) throws IOException {
		LatencyChart.write(file, "GET /hello latency, alone and while scraped",
				this.header.getOrDefault("options", "").split(", a scrape", 2)[0]
						+ "; each percentile the median over the windows",
				PERCENTILES, chartSeries());
	}

	private static double[] medians(List<Window> windows) {
		double[] medians = new double[PERCENTILES.size()];
		for (int i = 0; i < medians.length; i++) {
			List<Double> values = new ArrayList<>();
			for (Window window : windows) {
				values.add(window.millis(i));
			}
			medians[i] = JmhResults.median(values);
		}
		return medians;
	}

	private List<String> scenarios() {
		List<String> scenarios = new ArrayList<>();
		for (Window window : this.windows) {
			if (!scenarios.contains(window.scenario)) {
				scenarios.add(window.scenario);
			}
		}
		return scenarios;
	}

	private List<Pair> pairs(String scenario) {
		Map<Integer, Window> alone = new LinkedHashMap<>();
		Map<Integer, Window> scraped = new LinkedHashMap<>();
		for (Window window : this.windows) {
			if (window.scenario.equals(scenario)) {
				(window.scraped ? scraped : alone).put(window.pair, window);
			}
		}
		List<Pair> pairs = new ArrayList<>();
		for (Map.Entry<Integer, Window> entry : alone.entrySet()) {
			Window other = scraped.get(entry.getKey());
			if (other != null) {
				pairs.add(new Pair(entry.getValue(), other));
			}
		}
		return pairs;
	}

	private static String ratio(List<Double> ratios) {
		return String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)", JmhResults.median(ratios), Collections.min(ratios),
				Collections.max(ratios));
	}

	private static String count(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
	}

	static String millis(double millis) {
		if (millis >= 100) {
			return String.format(Locale.ROOT, "%.0f", millis);
		}
		if (millis >= 10) {
			return String.format(Locale.ROOT, "%.1f", millis);
		}
		return String.format(Locale.ROOT, "%.2f", millis);
	}

	private record Pair(Window alone, Window scraped) {

	}

	/**
	 * One measured window.
	 *
	 * @param scenario the scenario's id
	 * @param label what the scenario is, as tables print it
	 * @param pair which pair of windows of the scenario this one belongs to
	 * @param scraped whether scrapers scraped during the window
	 * @param requests the requests due during the window
	 * @param failed how many of them failed
	 * @param percentileMicros latencies at {@link #PERCENTILES}, in microseconds
	 * @param gcPauses the application's GC pauses in the window
	 * @param gcTotalMillis their total
	 * @param gcMaxMillis the longest
	 * @param scrapesOk scrapes started in the window and answered 200
	 * @param scrapesRejected answered 503
	 * @param scrapesFailed timed out or failed
	 * @param scrapeMeanMillis the mean duration of the scrapes answered 200
	 * @param cpuMillis CPU time the application's process used in the window
	 * @param seconds the window's length
	 * @param loadStart the machine's load average at the start
	 * @param loadEnd and at the end
	 * @param healthy whether the application was alive and had not run out of memory
	 */
	public record Window(String scenario, String label, int pair, boolean scraped, long requests, long failed,
			long[] percentileMicros, int gcPauses, double gcTotalMillis, double gcMaxMillis, long scrapesOk,
			long scrapesRejected, long scrapesFailed, double scrapeMeanMillis, double cpuMillis, double seconds,
			double loadStart, double loadEnd, boolean healthy) {

		double millis(int percentile) {
			return this.percentileMicros[percentile] / 1000.0;
		}

		String line() {
			StringBuilder line = new StringBuilder();
			line.append(this.scenario).append('\t').append(this.label).append('\t').append(this.pair).append('\t');
			line.append(this.scraped ? "scraped" : "alone").append('\t').append(this.requests).append('\t');
			line.append(this.failed);
			for (long micros : this.percentileMicros) {
				line.append('\t').append(micros);
			}
			line.append(String.format(Locale.ROOT, "\t%d\t%.3f\t%.3f\t%d\t%d\t%d\t%.3f\t%.1f\t%.3f\t%.2f\t%.2f\t%b",
					this.gcPauses, this.gcTotalMillis, this.gcMaxMillis, this.scrapesOk, this.scrapesRejected,
					this.scrapesFailed, this.scrapeMeanMillis, this.cpuMillis, this.seconds, this.loadStart,
					this.loadEnd, this.healthy));
			return line.toString();
		}

		static Window parse(String line) {
			String[] cells = line.split("\t", -1);
			int percentiles = PERCENTILES.size();
			long[] micros = new long[percentiles];
			for (int i = 0; i < percentiles; i++) {
				micros[i] = Long.parseLong(cells[6 + i]);
			}
			int next = 6 + percentiles;
			return new Window(cells[0], cells[1], Integer.parseInt(cells[2]), cells[3].equals("scraped"),
					Long.parseLong(cells[4]), Long.parseLong(cells[5]), micros, Integer.parseInt(cells[next]),
					Double.parseDouble(cells[next + 1]), Double.parseDouble(cells[next + 2]),
					Long.parseLong(cells[next + 3]), Long.parseLong(cells[next + 4]), Long.parseLong(cells[next + 5]),
					Double.parseDouble(cells[next + 6]), Double.parseDouble(cells[next + 7]),
					Double.parseDouble(cells[next + 8]), Double.parseDouble(cells[next + 9]),
					Double.parseDouble(cells[next + 10]), Boolean.parseBoolean(cells[next + 11]));
		}

	}

}
