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
 *
 * @author leanscrape
 */
final class AllocationBudgets {

	private static final String ALLOCATION = "gc.alloc.rate.norm";

	private final Map<String, Double> budgets;

	private AllocationBudgets(Map<String, Double> budgets) {
		this.budgets = budgets;
	}

	/**
	 * Read a budgets file: {@code ROW = BYTES} lines, {@code #} comments.
	 * @param file the file
	 * @return the budgets
	 * @throws IOException when the file cannot be read
	 */
	static AllocationBudgets read(Path file) throws IOException {
		Map<String, Double> budgets = new LinkedHashMap<>();
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			String trimmed = line.strip();
			if (trimmed.isEmpty() || trimmed.startsWith("#")) {
				continue;
			}
			int equals = trimmed.lastIndexOf('=');
			if (equals < 1 || trimmed.lastIndexOf('}') > equals) {
				throw new IllegalArgumentException("A budget line is ROW = BYTES, not: " + line);
			}
			budgets.put(trimmed.substring(0, equals).strip(), Double.parseDouble(trimmed.substring(equals + 1)));
		}
		return new AllocationBudgets(budgets);
	}

	/**
	 * Check the results of a JMH run against the budgets, then check that a doubling of
	 * each row would fail.
	 * @param entries the entries of a JMH JSON result file
	 * @param planted a row whose bytes are taken as twice what they were, to show the
	 * gate failing on a regression, or {@code null}
	 * @param out where the table of rows goes
	 * @return 0 when every row is measured and within its budget and every budget catches
	 * a doubling, 1 otherwise
	 */
	int check(List<?> entries, @Nullable String planted, PrintStream out) {
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
		return status;
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
		int brace = selector.indexOf('{');
		String method = (brace < 0) ? selector : selector.substring(0, brace);
		Map<String, String> wanted = new LinkedHashMap<>();
		if (brace >= 0) {
			for (String pair : selector.substring(brace + 1, selector.length() - 1).split(",")) {
				int equals = pair.indexOf('=');
				wanted.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
			}
		}
		List<Double> found = new ArrayList<>();
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
			Map<?, ?> secondary = (result.get("secondaryMetrics") instanceof Map<?, ?> map) ? map : Map.of();
			if (matches && secondary.get(ALLOCATION) instanceof Map<?, ?> allocation
					&& allocation.get("score") instanceof Number score) {
				found.add(score.doubleValue());
			}
		}
		return (found.size() == 1) ? found.get(0) : null;
	}

}
