package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The endpoint on Spring WebFlux with {@code management.server.port}: actuator on its own
 * Reactor Netty server, in a child context.
 * <p>
 * The test class path has Tomcat too, and with both servers present Spring Boot's
 * auto-configurations of the reactive management context each define the child context
 * factory: Tomcat's is left out, as an application with only Reactor Netty would not have
 * it.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.address=127.0.0.1",
				"management.server.port=0", "management.server.address=127.0.0.1",
				"spring.autoconfigure.exclude=org.springframework.boot.tomcat.autoconfigure.actuate.web.server."
						+ "TomcatReactiveManagementContextAutoConfiguration",
				"management.endpoints.web.exposure.include=prometheus", "rich.bulk-series=5000" })
class WebFluxManagementPortScrapeHttpTests extends AbstractManagementPortScrapeHttpTests {

}
