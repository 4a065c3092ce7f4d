package io.github.leanscrape.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the floors of {@link AllocationBudgets}: what a gated row must reuse per
 * scrape.
 *
 * @author leanscrape
 */
class AllocationBudgetsTests {

	private static final String ROW = "ChangingScrapeBenchmark.scrape{format=text,reuse=true}";

	/** A floor alone: the rows' bytes are not what these tests check. */
	private static final String BUDGETS = "floor " + ROW + ":blocksCopied = 10\n";

	@TempDir
	Path directory;

	private final ByteArrayOutputStream output = new ByteArrayOutputStream();

	@Test
	void aRowAtItsFloorPasses() throws IOException {
		// 100 blocks over 10 scrapes: 10 per scrape.
		assertThat(check(BUDGETS, result("true", "\"blocksCopied\":" + metric(100)), null)).isZero();
		assertThat(output()).contains("| " + ROW + ":blocksCopied | 10.0 | 10.0 | ok |")
			.contains("Planted stops of reuse (each floor's counter at 0): 1 of 1 fail, as they must.");
	}

	@Test
	void aRowAboveItsFloorPasses() throws IOException {
		assertThat(check(BUDGETS, result("true", "\"blocksCopied\":" + metric(250)), null)).isZero();
	}

	@Test
	void aRowBelowItsFloorFails() throws IOException {
		assertThat(check(BUDGETS, result("true", "\"blocksCopied\":" + metric(99)), null)).isOne();
		assertThat(output()).contains("| " + ROW + ":blocksCopied | 9.9 | 10.0 | BELOW FLOOR |");
	}

	@Test
	void aRowThatReusesNothingFails() throws IOException {
		// As with reuse off: the counters are there, at 0.
		assertThat(check(BUDGETS, result("true", "\"blocksCopied\":" + metric(0)), null)).isOne();
		assertThat(output()).contains("BELOW FLOOR");
	}

	@Test
	void aRowWithoutTheCounterFails() throws IOException {
		assertThat(check(BUDGETS, result("true", "\"segmentsReused\":" + metric(100)), null)).isOne();
		assertThat(output()).contains("| " + ROW + ":blocksCopied | – | 10.0 | MISSING |");
	}

	@Test
	void aRowWithoutScrapesFails() throws IOException {
		String result = result("true", "\"blocksCopied\":" + metric(100)).replace("\"scrapes\"", "\"other\"");
		assertThat(check(BUDGETS, result, null)).isOne();
		assertThat(output()).contains("MISSING");
	}

	@Test
	void aMissingRowFails() throws IOException {
		// The result there is is another row's: reuse off.
		assertThat(check(BUDGETS, result("false", "\"blocksCopied\":" + metric(100)), null)).isOne();
		assertThat(output()).contains("MISSING");
	}

	@Test
	void aPlantedStopOfReuseFails() throws IOException {
		assertThat(check(BUDGETS, result("true", "\"blocksCopied\":" + metric(250)), ROW)).isOne();
		assertThat(output()).contains("| " + ROW + ":blocksCopied | 0.0 | 10.0 | BELOW FLOOR |");
	}

	@Test
	void aFloorOfZeroWouldPassARowThatReusesNothing() throws IOException {
		String budgets = "floor " + ROW + ":blocksCopied = 0\n";
		assertThat(check(budgets, result("true", "\"blocksCopied\":" + metric(100)), null)).isOne();
		assertThat(output()).contains("A row that reuses nothing would pass the floor " + ROW + ":blocksCopied");
	}

	@Test
	void aFloorWithoutACounterIsRefused() throws IOException {
		Path file = Files.writeString(this.directory.resolve("budgets.properties"), "floor " + ROW + " = 10\n",
				StandardCharsets.UTF_8);
		assertThatIllegalArgumentException().isThrownBy(() -> AllocationBudgets.read(file))
			.withMessageContaining("floor ROW:COUNTER = N");
	}

	private int check(String budgets, String results, @Nullable String plantedNoReuse) throws IOException {
		Path file = Files.writeString(this.directory.resolve("budgets.properties"), budgets, StandardCharsets.UTF_8);
		Object entries = BenchmarkGate.parseJson("[" + results + "]");
		return AllocationBudgets.read(file)
			.check((List<?>) entries, null, plantedNoReuse, new PrintStream(this.output, true, StandardCharsets.UTF_8));
	}

	private String output() {
		return this.output.toString(StandardCharsets.UTF_8);
	}

	/**
	 * A result of JMH's, {@code -rf json}, as {@link ChangingScrapeBenchmark} reports it:
	 * 10 scrapes, 500 bytes each.
	 * @param reuse the row's {@code reuse} parameter
	 * @param counters the reuse counters, as secondary results
	 * @return the result
	 */
	private static String result(String reuse, String counters) {
		return """
				{"benchmark":"io.github.leanscrape.benchmark.ChangingScrapeBenchmark.scrape",
				"params":{"format":"text","reuse":"%s"},
				"primaryMetric":{"score":1.0,"scoreUnit":"ms/op"},
				"secondaryMetrics":{"gc.alloc.rate.norm":{"score":500.0,"scoreUnit":"B/op"},
				"scrapes":%s,%s}}""".formatted(reuse, metric(10), counters);
	}

	private static String metric(double score) {
		return "{\"score\":" + score + ",\"scoreUnit\":\"#\"}";
	}

}
