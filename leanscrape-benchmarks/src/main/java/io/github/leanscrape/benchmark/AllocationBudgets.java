package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The bytes per operation ({@code gc.alloc.rate.norm}) that each gated benchmark may
 * allocate, read from a budgets file, and the check of a JMH result against them.
 * <p>
 * Each line of the file is {@code ROW = BYTES}: a row is a benchmark method with the
 * parameters that pick one result,
 * {@code ScrapeBenchmark.leanscrape{format=text,configuration=plain}}, or the difference
 * of two such results, {@code A - B} (the starter's share of a scrape over HTTP: the
 * scrape less the server's floor). A row whose result is missing fails, so that a renamed
 * benchmark cannot pass unseen. Every budget must catch a doubling: the check also plants
 * a regression in each row in turn (twice the measured bytes) and fails when the planted
 * result would pass.
 * <p>
 * A line {@code floor ROW:COUNTER = N} is a floor instead: the least a row must reuse per
 * scrape, its secondary result {@code COUNTER} (an events counter of
 * {@link ChangingScrapeBenchmark.Reused}, such as {@code blocksCopied}) divided by its
 * {@code scrapes}, which JMH sums over iterations and forks alike. Bytes alone do not
 * show reuse stopping: a scrape that reuses nothing stays within its budget. A row below
 * its floor, or without the counter, fails; so must a row that reuses nothing, its
 * counters at 0, which every floor above 0 catches, as the check also makes sure.
 *
 * @author leanscrape
 */
final class AllocationBudgets {

	private static final String ALLOCATION = "gc.alloc.rate.norm";

	private static final String FLOOR = "floor ";

	private static final String SCRAPES = "scrapes";

	private final Map<String, Double> budgets;

	private final Map<String, Double> floors;

	private AllocationBudgets(Map<String, Double> budgets, Map<String, Double> floors) {
		this.budgets = budgets;
		this.floors = floors;
	}

	/**
	 * Read a budgets file: {@code ROW = BYTES} and {@code floor ROW:COUNTER = N} lines,
	 * {@code #} comments.
	 * @param file the file
	 * @return the budgets
	 * @throws IOException when the file cannot be read
	 */
	static AllocationBudgets read(Path file) throws IOException {
		Map<String, Double> budgets = new LinkedHashMap<>();
		Map<String, Double> floors = new LinkedHashMap<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			String trimmed = line.strip();
			if (trimmed.isEmpty() || trimmed.startsWith("#")) {
				continue;
			}
			if (trimmed.startsWith(FLOOR)) {
				int equals = trimmed.lastIndexOf('=');
				int colon = trimmed.lastIndexOf(':', Math.max(0, equals));
				if (equals < 1 || colon < trimmed.lastIndexOf('}')) {
					throw new IllegalArgumentException("A floor line is floor ROW:COUNTER = N, not: " + line);
				}
				floors.put(trimmed.substring(FLOOR.length(), equals).strip(),
						Double.parseDouble(trimmed.substring(equals + 1)));
				continue;
			}
			int equals = trimmed.lastIndexOf('=');
			if (equals < 1 || trimmed.lastIndexOf('}') > equals) {
				throw new IllegalArgumentException("A budget line is ROW = BYTES, not: " + line);
			}
			budgets.put(trimmed.substring(0, equals).strip(), Double.parseDouble(trimmed.substring(equals + 1)));
		}
		return new AllocationBudgets(budgets, floors);
	}

	/**
	 * Check the results of a JMH run against the budgets, then check that a doubling of
	 * each row would fail; then against the floors.
	 * @param entries the entries of a JMH JSON result file
	 * @param planted a row whose bytes are taken as twice what they were, to show the
	 * gate failing on a regression, or {@code null}
	 * @param plantedNoReuse a row (without {@code :COUNTER}) whose counters are taken as
	 * 0, to show the gate failing when reuse stops, or {@code null}
	 * @param out where the table of rows goes
	 * @return 0 when every row is measured and within its budget and every budget catches
	 * a doubling, and every floor is met and above 0; 1 otherwise
	 */
	int check(List<?> entries, @Nullable String planted, @Nullable String plantedNoReuse, PrintStream out) {
		Map<String, Double> measured = new LinkedHashMap<>();
		int status = 0;
		out.println("| gated row | bytes per operation | budget | |");
		out.println("|---|---:|---:|---|");
		for (Map.Entry<String, Double> budget : this.budgets.entrySet()) {
			Double bytes = measure(entries, budget.getKey());
			if (bytes != null && budget.getKey().equals(planted)) {
				bytes = 2 * bytes;
			}
			String verdict;
			if (bytes == null) {
				verdict = "MISSING";
				status = 1;
			}
			else {
				measured.put(budget.getKey(), bytes);
				verdict = within(bytes, budget.getValue()) ? "ok" : "OVER BUDGET";
				status = within(bytes, budget.getValue()) ? status : 1;
			}
			out.printf(Locale.ROOT, "| %s | %s | %,.0f | %s |%n", budget.getKey(),
					(bytes != null) ? String.format(Locale.ROOT, "%,.0f", bytes) : "–", budget.getValue(), verdict);
		}
		int caught = 0;
		for (Map.Entry<String, Double> row : measured.entrySet()) {
			// The planted regression: this row allocating twice what it did.
			if (!within(2 * row.getValue(), this.budgets.get(row.getKey()))) {
				caught++;
			}
			else {
				out.println("A planted regression (twice the bytes) of " + row.getKey() + " would pass its budget");
				status = 1;
			}
		}
		out.printf(Locale.ROOT, "Planted regressions (each row's bytes doubled): %d of %d fail, as they must.%n",
				caught, measured.size());
		return Math.max(status, checkFloors(entries, plantedNoReuse, out));
	}

	private int checkFloors(List<?> entries, @Nullable String plantedNoReuse, PrintStream out) {
		if (this.floors.isEmpty()) {
			return 0;
		}
		int status = 0;
		out.println();
		out.println("| reuse floor | per scrape | floor | |");
		out.println("|---|---:|---:|---|");
		for (Map.Entry<String, Double> floor : this.floors.entrySet()) {
			int colon = floor.getKey().lastIndexOf(':');
			String row = floor.getKey().substring(0, colon);
			Double perScrape = perScrape(entries, row, floor.getKey().substring(colon + 1));
			if (perScrape != null && row.equals(plantedNoReuse)) {
				perScrape = 0.0;
			}
			String verdict;
			if (perScrape == null) {
				verdict = "MISSING";
				status = 1;
			}
			else {
				verdict = (perScrape >= floor.getValue()) ? "ok" : "BELOW FLOOR";
				status = (perScrape >= floor.getValue()) ? status : 1;
			}
			out.printf(Locale.ROOT, "| %s | %s | %,.1f | %s |%n", floor.getKey(),
					(perScrape != null) ? String.format(Locale.ROOT, "%,.1f", perScrape) : "–", floor.getValue(),
					verdict);
		}
		int caught = 0;
		for (Map.Entry<String, Double> floor : this.floors.entrySet()) {
			// Reuse stopped: this row's counter at 0.
			if (floor.getValue() > 0) {
				caught++;
			}
			else {
				out.println("A row that reuses nothing would pass the floor " + floor.getKey());
				status = 1;
			}
		}
		out.printf(Locale.ROOT, "Planted stops of reuse (each floor's counter at 0): %d of %d fail, as they must.%n",
				caught, this.floors.size());
		return status;
	}

	/**
	 * Return a counter of a row per scrape: its total over the run divided by the run's
	 * scrapes.
	 * @param entries the results JMH wrote
	 * @param row the benchmark method, with parameters in braces
	 * @param counter the name of the secondary result
	 * @return the counter per scrape, or {@code null} when the row picks no one result,
	 * or it has no such counter or no scrapes
	 */
	private static @Nullable Double perScrape(List<?> entries, String row, String counter) {
		Map<?, ?> secondary = secondary(entries, row);
		Double total = score(secondary, counter);
		Double scrapes = score(secondary, SCRAPES);
		return (total != null && scrapes != null && scrapes > 0) ? total / scrapes : null;
	}

	private static boolean within(double bytes, @Nullable Double budget) {
		return budget != null && bytes <= budget;
	}

	/**
	 * Return the bytes per operation of a row: one result, or the difference of two.
	 * @param entries the results JMH wrote
	 * @param row the row: a selector, or two apart by {@code " - "}
	 * @return its bytes per operation, or {@code null} when a selector picks no one
	 * result
	 */
	private static @Nullable Double measure(List<?> entries, String row) {
		int minus = row.indexOf(" - ");
		if (minus < 0) {
			return allocation(entries, row);
		}
		Double left = allocation(entries, row.substring(0, minus).strip());
		Double right = allocation(entries, row.substring(minus + 3).strip());
		return (left != null && right != null) ? left - right : null;
	}

	/**
	 * Return the bytes per operation of the one result that a benchmark method and
	 * parameters pick, or {@code null} when none or more than one match.
	 * @param entries the results JMH wrote
	 * @param selector the benchmark method, with parameters in braces
	 * @return its bytes per operation, or {@code null}
	 */
	private static @Nullable Double allocation(List<?> entries, String selector) {
		return score(secondary(entries, selector), ALLOCATION);
	}

	private static @Nullable Double score(@Nullable Map<?, ?> secondary, String name) {
		if (secondary != null && secondary.get(name) instanceof Map<?, ?> metric
				&& metric.get("score") instanceof Number score) {
			return score.doubleValue();
		}
		return null;
	}

	/**
	 * Return the secondary results of the one result that a benchmark method and
	 * parameters pick, or {@code null} when none or more than one match.
	 * @param entries the results JMH wrote
	 * @param selector the benchmark method, with parameters in braces
	 * @return its secondary results, or {@code null}
	 */
	private static @Nullable Map<?, ?> secondary(List<?> entries, String selector) {
		int brace = selector.indexOf('{');
		String method = (brace < 0) ? selector : selector.substring(0, brace);
		Map<String, String> wanted = new LinkedHashMap<>();
		if (brace >= 0) {
			for (String pair : selector.substring(brace + 1, selector.length() - 1).split(",")) {
				int equals = pair.indexOf('=');
				wanted.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
			}
		}
		List<Map<?, ?>> found = new ArrayList<>();
		for (Object entry : entries) {
			Map<?, ?> result = (entry instanceof Map<?, ?> map) ? map : Map.of();
			if (!String.valueOf(result.get("benchmark")).endsWith("." + method)) {
				continue;
			}
			Map<?, ?> params = (result.get("params") instanceof Map<?, ?> map) ? map : Map.of();
			boolean matches = true;
			for (Map.Entry<String, String> param : wanted.entrySet()) {
				matches &= param.getValue().equals(String.valueOf(params.get(param.getKey())));
			}
			if (matches) {
				found.add((result.get("secondaryMetrics") instanceof Map<?, ?> map) ? map : Map.of());
			}
		}
		return (found.size() == 1) ? found.get(0) : null;
	}

}
