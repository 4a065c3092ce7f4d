package io.github.leanscrape.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.serve.Scraper;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.diagnostics.LoggingFailureAnalysisReporter;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code leanscrape.*} property whose value can be out of range is checked where it
 * is bound: a bad value stops the application with Spring Boot's failure report
 * ("APPLICATION FAILED TO START", the property, its value and what is allowed), found
 * here as Spring Boot finds it, by the failure analyzers of {@code spring.factories}.
 */
@ExtendWith(OutputCaptureExtension.class)
class LeanscrapePropertiesValidationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
						EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
						LeanscrapeAutoConfiguration.class, LeanscrapeScrapeAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=prometheus");

	/**
	 * A property, a value out of its range, the value as the report shows it (the bound
	 * value, as Spring Boot shows it for its own properties) and the reason.
	 */
	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			max-concurrent-renders      | 0        | 0         | must be at least 1
			max-concurrent-renders      | -3       | -3        | must be at least 1
			scrape-timeout              | -5s      | PT-5S     | must be longer than 0
			scrape-timeout              | 0s       | PT0S      | must be longer than 0
			max-scrape-timeout          | 0s       | PT0S      | must be longer than 0
			max-scrape-timeout          | 5s       | PT5S      | must be at least leanscrape.scrape-timeout (PT10S)
			cache.time-to-live          | -1s      | PT-1S     | must be 0 or longer (0 turns it off)
			cardinality.warn-threshold  | 0        | 0         | must be at least 1
			buffer.headroom             | -1KB     | -1024B    | must be 0B or more
			buffer.max-retained         | -1MB     | -1048576B | must be 0B or more
			buffer.max-held-bodies      | -1       | -1.0      | must be 0 (no limit) or a finite number of at least 1
			buffer.max-held-bodies      | 0.5      | 0.5       | must be 0 (no limit) or a finite number of at least 1
			buffer.max-held-bodies      | NaN      | NaN       | must be 0 (no limit) or a finite number of at least 1
			buffer.max-held-bodies      | Infinity | Infinity  | must be 0 (no limit) or a finite number of at least 1
			compression.level           | 0        | 0         | must be between 1 and 9
			compression.level           | 42       | 42        | must be between 1 and 9
			compression.zstd.level      | 0        | 0         | must be between 1 and 19
			compression.zstd.level      | 99       | 99        | must be between 1 and 19
			recording.max-cached-meters | -1       | -1        | must be at least 0
			""")
	void outOfRangeValueStopsTheStartWithSpringBootsReport(String property, String value, String shown, String reason,
			CapturedOutput output) {
		String name = "leanscrape." + property;
		this.runner.withPropertyValues(name + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			assertThat(causes(failure)).anyMatch(BindValidationException.class::isInstance);
			FailureAnalysis analysis = analyze(failure);
			assertThat(analysis).as("Spring Boot's failure analysis").isNotNull();
			assertThat(analysis.getDescription()).contains("Property: " + name)
				.contains("Value: \"" + shown + "\"")
				.contains("Reason: " + reason);
			assertThat(analysis.getAction()).contains("Update your application's configuration");
			new LoggingFailureAnalysisReporter().report(analysis);
		});
		// What the console shows: Spring Boot's report, without a stack trace.
		assertThat(output).contains("APPLICATION FAILED TO START", "Property: " + name, "Reason: " + reason)
			.doesNotContain("\tat ")
			.doesNotContain("Caused by");
	}

	@Test
	void reportNamesEveryPropertyOutOfRange() {
		this.runner.withPropertyValues("leanscrape.compression.level=42", "leanscrape.compression.zstd.level=99")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: leanscrape.compression.level")
					.contains("Value: \"42\"")
					.contains("Property: leanscrape.compression.zstd.level")
					.contains("Value: \"99\"");
			});
	}

	@Test
	void zstdLevelFailsAtBindingNotInTheEncodersFactoryMethod() {
		this.runner.withPropertyValues("leanscrape.compression.zstd.level=99").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(causes(context.getStartupFailure()))
				.noneMatch((cause) -> cause instanceof IllegalArgumentException)
				.noneMatch((cause) -> String.valueOf(cause.getMessage()).contains("Zstandard level must be"));
		});
		// Within range, the encoder gets the level.
		this.runner.withPropertyValues("leanscrape.compression.zstd.level=19")
			.run((context) -> assertThat(context.getBean(ZstdEncoder.class)).hasFieldOrPropertyWithValue("level", 19));
	}

	@Test
	void scrapeTimeoutAboveTheDefaultMaximumNamesTheMaximum() {
		this.runner.withPropertyValues("leanscrape.scrape-timeout=5m").run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("Property: leanscrape.scrape-timeout")
				.contains("Value: \"PT5M\"")
				.contains("Reason: must be at most leanscrape.max-scrape-timeout (PT2M)")
				.doesNotContain("null");
		});
		this.runner.withPropertyValues("leanscrape.scrape-timeout=5m", "leanscrape.max-scrape-timeout=5m")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			buffer.max-held-bodies      | 0
			buffer.max-held-bodies      | 1
			buffer.headroom             | 0B
			buffer.max-retained         | 0B
			cache.time-to-live          | 0s
			recording.max-cached-meters | 0
			max-concurrent-renders      | 1
			compression.level           | 9
			compression.zstd.level      | 1
			cardinality.warn-threshold  | 1
			""")
	void valuesAtTheEdgeOfTheirRangeStart(String property, String value) {
		this.runner.withPropertyValues("leanscrape." + property + "=" + value).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(Scraper.class);
		});
	}

	@Test
	void defaultsAreValid() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(LeanscrapeProperties.class));
	}

	private static List<Throwable> causes(@Nullable Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

	/**
	 * Analyze a start-up failure as Spring Boot does when an application fails to start:
	 * every {@link FailureAnalyzer} of {@code spring.factories} that can be made, in
	 * order, the first analysis wins.
	 */
	private static @Nullable FailureAnalysis analyze(@Nullable Throwable failure) {
		Objects.requireNonNull(failure, "no start-up failure");
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, new StandardEnvironment());
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader
			.forDefaultResourceLocation(LeanscrapePropertiesValidationTests.class.getClassLoader())
			.load(FailureAnalyzer.class, arguments, (type, name, ex) -> {
				// As Spring Boot: an analyzer that cannot be made here (one for Bean
				// Validation, with no provider on the class path) is left out.
			});
		AnnotationAwareOrderComparator.sort(analyzers);
		for (FailureAnalyzer analyzer : analyzers) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
