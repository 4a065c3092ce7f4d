package io.github.leanscrape.autoconfigure;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.web.reactive.ScrapeNegotiationWebFilter;
import io.github.leanscrape.web.servlet.ScrapeNegotiationFilter;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.actuate.web.WebFluxEndpointManagementContextConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.actuate.web.WebMvcEndpointManagementContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the starter backs off, the application starts as it would without it: no scrape
 * bean and no web glue of the starter's, and nothing logged by the starter above DEBUG.
 * Each case is also run without the starter, to compare with.
 */
class LeanscrapeBackOffTests {

	private static final AutoConfigurations SPRING_BOOT = AutoConfigurations.of(MetricsAutoConfiguration.class,
			PrometheusMetricsExportAutoConfiguration.class, EndpointAutoConfiguration.class,
			WebEndpointAutoConfiguration.class);

	private static final AutoConfigurations STARTER = AutoConfigurations.of(LeanscrapeAutoConfiguration.class,
			LeanscrapeScrapeAutoConfiguration.class);

	private static final AutoConfigurations SERVLET = AutoConfigurations.of(ManagementContextAutoConfiguration.class,
			DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class,
			WebMvcEndpointManagementContextConfiguration.class);

	private static final AutoConfigurations SERVLET_GLUE = AutoConfigurations
		.of(LeanscrapeServletManagementContextConfiguration.class);

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	private final Logger starterLogger = (Logger) LoggerFactory.getLogger("io.github.leanscrape");

	private Level starterLevel;

	@BeforeEach
	void captureTheStartersLog() {
		this.starterLevel = this.starterLogger.getLevel();
		// Every event of the starter's loggers is made, so that one above DEBUG is seen.
		this.starterLogger.setLevel(Level.TRACE);
		this.logged.start();
		this.starterLogger.addAppender(this.logged);
	}

	@AfterEach
	void restoreTheStartersLog() {
		this.starterLogger.detachAppender(this.logged);
		this.starterLogger.setLevel(this.starterLevel);
	}

	@Test
	void theCaptureSeesWhatTheStartersLoggersLogAboveDebug() {
		// Through commons-logging, as the starter logs: the assertions below can fail.
		LogFactory.getLog("io.github.leanscrape.autoconfigure.Example").info("seen");
		assertThat(this.logged.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly("seen");
	}

	@Test
	void applicationWithoutAWebServerAndTheDefaultExposure() {
		ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(SPRING_BOOT);
		runner.run((without) -> runner.withConfiguration(STARTER).run((with) -> {
			assertStartsAsWithout(with, without);
			assertThat(with).doesNotHaveBean(PrometheusScrapeEndpoint.class);
		}));
	}

	@Test
	void applicationWithoutAWebServerAndThePrometheusEndpointExposed() {
		// Spring Boot makes its endpoint here too (the application can read it); the
		// starter's stands in its place, as where there is a server, and adds no web
		// glue.
		ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(SPRING_BOOT)
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus");
		runner.run((without) -> runner.withConfiguration(STARTER).run((with) -> {
			assertThat(with).hasNotFailed();
			assertThat(without).hasSingleBean(PrometheusScrapeEndpoint.class);
			assertThat(with).hasSingleBean(PrometheusScrapeEndpoint.class);
			assertThat(with).doesNotHaveBean(ScrapeNegotiationFilter.class);
			assertThat(with).doesNotHaveBean("leanscrapeWebMvcConfigurer");
			assertNothingLoggedAboveDebug();
		}));
	}

	@Test
	void servletApplicationWithoutMicrometerRegistryPrometheus() {
		WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(SPRING_BOOT)
			.withConfiguration(SERVLET)
			.withClassLoader(new FilteredClassLoader("io.micrometer.prometheusmetrics"))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus");
		runner.run((without) -> runner.withConfiguration(STARTER)
			.withConfiguration(SERVLET_GLUE)
			.run((with) -> assertStartsAsWithout(with, without)));
	}

	@Test
	void reactiveApplicationWithoutMicrometerRegistryPrometheus() {
		ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
			.withConfiguration(SPRING_BOOT)
			.withConfiguration(AutoConfigurations.of(WebFluxAutoConfiguration.class,
					WebFluxEndpointManagementContextConfiguration.class))
			.withClassLoader(new FilteredClassLoader("io.micrometer.prometheusmetrics"))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus");
		runner.run((without) -> runner.withConfiguration(STARTER)
			.withConfiguration(AutoConfigurations.of(LeanscrapeReactiveManagementContextConfiguration.class))
			.run((with) -> {
				assertThat(without).hasNotFailed();
				assertThat(with).hasNotFailed();
				assertStartsAsWithout(with.getSourceApplicationContext().getBeanDefinitionNames(),
						without.getSourceApplicationContext().getBeanDefinitionNames());
				assertThat(with).doesNotHaveBean(ScrapeNegotiationWebFilter.class);
				assertNoScrapeBeans(with);
			}));
	}

	@Test
	void servletApplicationWithThePrometheusEndpointNotExposed() {
		WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(SPRING_BOOT)
			.withConfiguration(SERVLET)
			.withPropertyValues("management.endpoints.web.exposure.include=health");
		runner.run((without) -> runner.withConfiguration(STARTER)
			.withConfiguration(SERVLET_GLUE)
			.run((with) -> assertStartsAsWithout(with, without)));
	}

	@Test
	void servletApplicationWithThePrometheusEndpointExposedHasTheStartersBeans() {
		// The other side of the cases above: the assertions there can fail.
		new WebApplicationContextRunner().withConfiguration(SPRING_BOOT)
			.withConfiguration(SERVLET)
			.withConfiguration(STARTER)
			.withConfiguration(SERVLET_GLUE)
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus")
			.run((context) -> {
				assertThat(context).hasSingleBean(LeanscrapeScrapeEndpoint.class);
				assertThat(context).hasSingleBean(ScrapeNegotiationFilter.class);
				assertNothingLoggedAboveDebug();
			});
	}

	private void assertStartsAsWithout(AssertableApplicationContext with, AssertableApplicationContext without) {
		assertThat(without).hasNotFailed();
		assertThat(with).hasNotFailed();
		assertStartsAsWithout(with.getSourceApplicationContext().getBeanDefinitionNames(),
				without.getSourceApplicationContext().getBeanDefinitionNames());
		assertNoScrapeBeans(with);
	}

	private void assertStartsAsWithout(AssertableWebApplicationContext with, AssertableWebApplicationContext without) {
		assertThat(without).hasNotFailed();
		assertThat(with).hasNotFailed();
		assertStartsAsWithout(with.getSourceApplicationContext().getBeanDefinitionNames(),
				without.getSourceApplicationContext().getBeanDefinitionNames());
		assertThat(with).doesNotHaveBean(ScrapeNegotiationFilter.class);
		assertThat(with).doesNotHaveBean("leanscrapeWebMvcConfigurer");
		assertNoScrapeBeans(with);
	}

	private void assertStartsAsWithout(String[] with, String[] without) {
		// The starter's configuration classes may be registered; none of its beans is.
		List<String> added = List.of(with)
			.stream()
			.filter((name) -> !List.of(without).contains(name))
			.filter((name) -> !name.startsWith("io.github.leanscrape.autoconfigure."))
			.toList();
		assertThat(added).as("beans the starter added").isEmpty();
		assertNothingLoggedAboveDebug();
	}

	private static void assertNoScrapeBeans(ApplicationContextAssertProvider<?> context) {
		assertThat(context).doesNotHaveBean(LeanscrapeScrapeEndpoint.class);
		assertThat(context).doesNotHaveBean(Scraper.class);
		assertThat(context).doesNotHaveBean(ScrapeResponder.class);
		assertThat(context).doesNotHaveBean(ChunkPool.class);
		assertThat(context).doesNotHaveBean(LeanscrapeProperties.class);
	}

	private void assertNothingLoggedAboveDebug() {
		assertThat(this.logged.list).as("the starter's log above DEBUG")
			.filteredOn((event) -> event.getLevel().isGreaterOrEqual(Level.INFO))
			.isEmpty();
	}

}
