package io.github.leanscrape.docs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tables of what reuse between scrapes buys ({@link PublishedFigures}): scrapers in
 * turn against the same starter formatting and compressing every body whole, in JMH, over
 * HTTP and interleaved, and how much of the demo changes between two scrapes.
 *
 * @author leanscrape
 */
final class ReuseTables {

	/**
	 * The shapes of change the mix tables show, by parameter value, as their rows name
	 * them.
	 */
	private static final String[][] MIX_CHANGES = { { "10-blocks", "10%, in blocks" },
			{ "10-scattered", "10%, in every block" } };

	/** The worst cases of reuse, by parameter value, as their rows name them. */
	private static final String[][] WORST_CASES = { { "first", "every scrape a kind's first" },
			{ "family", "a family added mid-body, removed the next scrape" } };

	private ReuseTables() {
	}

	/**
	 * Scrapers as users run them, at 100,000 series in OpenMetrics: one scraper, or three
	 * asking gzip, zstd and nothing in turn (each row times one of them, the other two
	 * scraping between its scrapes), with a tenth of the counters changed between any two
	 * scrapes in whole blocks or spread over every block (as in a family Micrometer
	 * orders by hash); what is reused against the same starter formatting and compressing
	 * every body whole.
	 * @param results the results of the mixes
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	static String scraperMixes(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append("| Change between scrapes | Scrapers | Coding | whole: ms | reuse: ms | reuse / whole (trials) |")
			.append(" KB sent: whole / reuse | allocated per scrape: whole / reuse |\n")
			.append("|---|---|---|---:|---:|---:|---:|---:|\n");
		for (String[] change : MIX_CHANGES) {
			for (String scrapers : List.of("one", "three in turn")) {
				for (String coding : List.of("gzip", "zstd", "identity")) {
					String param = scrapers.equals("one") ? coding : coding + "@3";
					Map<String, String> whole = Map.of("change", change[0], "coding", param, "reuse", "false");
					Map<String, String> reused = Map.of("change", change[0], "coding", param, "reuse", "true");
					JmhResults.Forks before = results.find("scrape", whole);
					JmhResults.Forks after = results.find("scrape", reused);
					// Where one of three is timed, the bytes of its operation are those
					// of
					// all three scrapes: the allocation per scrape is the rotation's row.
					String allocated = scrapers.equals("one")
							? FigureText.size(before.medianBytes()) + " / " + FigureText.size(after.medianBytes()) : "";
					md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.0f / %.0f | %s |\n",
							change[1], scrapers, coding, FigureText.times(before), FigureText.times(after),
							FigureText.pairedRatio(results, after, before),
							FigureText.sentPerScrape(results, "scrape", whole) / 1e3,
							FigureText.sentPerScrape(results, "scrape", reused) / 1e3, allocated));
				}
			}
			Map<String, String> all = Map.of("change", change[0], "coding", "gzip-zstd-identity", "reuse", "false");
			Map<String, String> allReused = Map.of("change", change[0], "coding", "gzip-zstd-identity", "reuse",
					"true");
			JmhResults.Forks rotation = results.find("scrape", all);
			JmhResults.Forks rotationReused = results.find("scrape", allReused);
			md.append(String.format(Locale.ROOT, "| %s | three in turn | each in turn | %s | %s | %s | | %s / %s |\n",
					change[1], FigureText.times(rotation), FigureText.times(rotationReused),
					FigureText.pairedRatio(results, rotationReused, rotation), FigureText.size(rotation.medianBytes()),
					FigureText.size(rotationReused.medianBytes())));
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	/**
	 * The worst cases of reuse at 100,000 series in OpenMetrics, each on top of a tenth
	 * of the counters changed in whole blocks: every scrape a kind's first (what is kept
	 * dropped before it), and a family added mid-body before one scrape and removed
	 * before the next; one scraper, or three asking gzip, zstd and nothing in turn, each
	 * timed.
	 * @param results the results of the worst cases
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	static String worstCases(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append("| Worst case | Scrapers | Coding | whole: ms | reuse: ms | reuse / whole (trials) |")
			.append(" KB sent: whole / reuse | allocated per scrape: whole / reuse |\n")
			.append("|---|---|---|---:|---:|---:|---:|---:|\n");
		for (String[] worst : WORST_CASES) {
			for (String coding : List.of("gzip", "zstd", "identity", "gzip-zstd-identity")) {
				Map<String, String> whole = Map.of("change", worst[0], "coding", coding, "reuse", "false");
				Map<String, String> reused = Map.of("change", worst[0], "coding", coding, "reuse", "true");
				JmhResults.Forks before = results.find("scrape", whole);
				JmhResults.Forks after = results.find("scrape", reused);
				boolean rotation = coding.contains("-");
				md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.0f / %.0f | %s / %s |\n",
						worst[1], rotation ? "three in turn" : "one", rotation ? "each in turn" : coding,
						FigureText.times(before), FigureText.times(after),
						FigureText.pairedRatio(results, after, before),
						FigureText.sentPerScrape(results, "scrape", whole) / 1e3,
						FigureText.sentPerScrape(results, "scrape", reused) / 1e3,
						FigureText.size(before.medianBytes()), FigureText.size(after.medianBytes())));
			}
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	/**
	 * Scrapers in turn against a starter that reuses and one that does not, their scrapes
	 * interleaved in one JVM ({@code InterleavedMixes}).
	 * @param name the raw file's name under {@code docs/load}
	 * @param text what it holds
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	static String interleavedMixes(String name, String text) {
		StringBuilder md = new StringBuilder("| Scrapers in turn | Coding | whole: ms | reuse: ms | reuse / whole |")
			.append(" each pair: quartiles | chunks allocated: whole / reuse |\n")
			.append("|---|---|---:|---:|---:|---:|---:|\n");
		for (String line : text.split("\n")) {
			if (line.isEmpty() || line.startsWith("#") || line.startsWith("mix\t")) {
				continue;
			}
			String[] cells = line.split("\t");
			String mix = cells[0].startsWith("control:")
					? cells[0].substring("control:".length()) + " (control: both whole)" : cells[0];
			md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.2f | %.2f–%.2f | %s / %s |\n", mix,
					cells[1], Double.parseDouble(cells[3]), Double.parseDouble(cells[2]), Double.parseDouble(cells[4]),
					Double.parseDouble(cells[5]), Double.parseDouble(cells[7]), cells[9], cells[8]));
		}
		return md.append('\n').append(FigureText.raw("docs/load/" + name)).append('\n').toString();
	}

	/**
	 * One scraper, or three in turn, over HTTP (Tomcat), one of them timed, with and
	 * without reuse, after a tenth of the counters changed in whole blocks or in every
	 * block. A run without the one-scraper results shows three in turn only.
	 * @param results the results of the mixes over HTTP
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	static String scraperMixesOverHttp(JmhResults results) {
		StringBuilder md = new StringBuilder();
		md.append(
				"| Change between scrapes | Scrapers | Timed scraper | whole: ms | reuse: ms | reuse / whole (trials) |")
			.append(" allocated per operation: whole / reuse |\n")
			.append("|---|---|---|---:|---:|---:|---:|\n");
		for (String[] change : MIX_CHANGES) {
			for (String scrapers : List.of("one", "three in turn")) {
				for (String coding : List.of("gzip", "zstd", "identity")) {
					String encoding = scrapers.equals("one") ? coding : coding + "@3";
					JmhResults.Forks before = results.findOrNull("scrape",
							Map.of("changed", change[0], "encoding", encoding, "reused", "false"));
					JmhResults.Forks after = results.findOrNull("scrape",
							Map.of("changed", change[0], "encoding", encoding, "reused", "true"));
					if (before == null || after == null) {
						continue;
					}
					md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s / %s |\n", change[1],
							scrapers, coding, FigureText.times(before), FigureText.times(after),
							FigureText.pairedRatio(results, after, before), FigureText.size(before.medianBytes()),
							FigureText.size(after.medianBytes())));
				}
			}
		}
		return md.append('\n').append(FigureText.raw(results)).append('\n').toString();
	}

	/**
	 * What share of the series and of the gzip segments of the demo under traffic changed
	 * between two scrapes 15 s apart: the median over the intervals, and the range.
	 * @param name the raw file's name under {@code docs/load}
	 * @param text what it holds
	 * @return the block: the table in Markdown and the line naming its raw file
	 */
	static String changeShare(String name, String text) {
		Map<String, List<double[]>> rows = new LinkedHashMap<>();
		for (String line : text.split("\n")) {
			if (line.isEmpty() || line.startsWith("#") || line.startsWith("synthetic")) {
				continue;
			}
			String[] cells = line.split("\t");
			double series = Double.parseDouble(cells[2]);
			double compressed = Double.parseDouble(cells[4]);
			double reused = Double.parseDouble(cells[5]);
			rows.computeIfAbsent(cells[0], (key) -> new ArrayList<>())
				.add(new double[] { series, Double.parseDouble(cells[3]) / series, compressed / (compressed + reused),
						compressed + reused });
		}
		StringBuilder md = new StringBuilder("| The demo under traffic | series | series changed: median (range) |")
			.append(" gzip segments | segments changed: median (range) |\n|---|---:|---:|---:|---:|\n");
		for (Map.Entry<String, List<double[]>> row : rows.entrySet()) {
			List<double[]> intervals = row.getValue();
			String what = row.getKey().equals("0") ? "its own meters alone"
					: "beside " + FigureText.number(row.getKey()) + " idle synthetic series";
			md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f | %s |\n", what,
					FigureText.bytes(column(intervals, 0).get(0)), shares(column(intervals, 1)),
					column(intervals, 3).get(0), shares(column(intervals, 2))));
		}
		return md.append('\n').append(FigureText.raw("docs/load/" + name)).append('\n').toString();
	}

	private static List<Double> column(List<double[]> rows, int index) {
		List<Double> column = new ArrayList<>();
		for (double[] row : rows) {
			column.add(row[index]);
		}
		return column;
	}

	private static String shares(List<Double> shares) {
		return String.format(Locale.ROOT, "%s (%s–%s)", FigureText.percent(JmhResults.median(shares)),
				FigureText.percent(Collections.min(shares)), FigureText.percent(Collections.max(shares)));
	}

}
