from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
<?php
namespace App\\Orders;

use App\\Db\\Connection;
use App\\Contracts\\{Store, Cache as CacheContract};
require_once __DIR__ . '/helpers.php';

const MAX_ITEMS = 64;

/**
 * Persists orders.
 */
#[Entity]
final class OrderStore extends BaseStore implements Store, \\Countable
{
    use LogsQueries;

    private const TABLE = 'orders';
    private array $cache = [];

    public function __construct(private Connection $db) {}

    // Finds one.
    public function find(string $id): ?Order
    {
        $row = $this->db->query("select * from orders", [$id]);
        Log::info('find called');
        return new Order($row['id']);
    }
}

interface Repo extends Countable { public function all(): array; }
trait LogsQueries { protected function log(string $m): void { error_log($m); } }
enum Status: string { case Open = 'open'; }
function helper(int $n): int { return strlen((string) $n); }
"""


def test_php_symbols() -> None:
    parsed = parse("php", "src/Orders/OrderStore.php", SOURCE)
    assert symbols(parsed) == {
        ("constant", "MAX_ITEMS", 8),
        ("class", "OrderStore", 13),
        ("constant", "OrderStore.TABLE", 18),
        ("field", "OrderStore.cache", 19),
        ("method", "OrderStore.__construct", 21),
        ("method", "OrderStore.find", 24),
        ("interface", "Repo", 32),
        ("method", "Repo.all", 32),
        ("trait", "LogsQueries", 33),
        ("method", "LogsQueries.log", 33),
        ("enum", "Status", 34),
        ("constant", "Status.Open", 34),
        ("function", "helper", 35),
    }
    assert symbol(parsed, "OrderStore").doc == "Persists orders."  # above the #[attribute]
    assert symbol(parsed, "OrderStore.find").doc == "Finds one."
    assert symbol(parsed, "OrderStore.find").parent == "OrderStore"


def test_php_references() -> None:
    parsed = parse("php", "src/Orders/OrderStore.php", SOURCE)
    find = "OrderStore.find"
    assert refs(parsed, EdgeKind.EXTENDS) == {("OrderStore", "BaseStore"), ("Repo", "Countable")}
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {
        ("OrderStore", "Store"), ("OrderStore", "Countable"), ("OrderStore", "LogsQueries"),
    }
    assert refs(parsed, EdgeKind.CALLS) == {
        (find, "query"), (find, "info"), (find, "Order"),
        ("LogsQueries.log", "error_log"), ("helper", "strlen"),
    }
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("OrderStore.__construct", "Connection"), (find, "Order")} <= types
    assert imports(parsed) == {
        ("App\\Db\\Connection", ("Connection",)),
        ("Store", ("Store",)),
        ("Cache", ("CacheContract",)),
        ("/helpers.php", ()),
    }


def test_php_syntax_error_keeps_good_symbols() -> None:
    source = "<?php\nfunction ok() { return 1; }\nfunction broken( {\nclass Later {}\n"
    parsed = parse("php", "x.php", source)
    assert parsed.error
    assert ("function", "ok", 2) in symbols(parsed)
