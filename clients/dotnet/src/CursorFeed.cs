using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

namespace Warehouse.Api
{
    /// <summary>
    /// Every item after a stored position of a cursor-paged operation (the events feed), page after page, until the
    /// feed has nothing more (<c>hasMore</c> false): <c>while (await feed.MoveNextAsync()) { Use(feed.Current); Save(feed.Cursor); }</c>.
    /// <see cref="Cursor"/> is the position after the last item handed out: store it once that item is processed and
    /// pass it back as <c>after</c> to resume without missing or repeating one. A position too old for the server
    /// throws <see cref="WarehouseApiException"/> with status 410 (code <c>GONE</c>): resynchronise, then follow again
    /// without <c>after</c>. After <see cref="MoveNextAsync"/> answered false, calling it again polls for newer items.
    /// </summary>
    /// <remarks>
    /// The server's cursor marks page ends only; a reader that stops inside a page stores <c>&lt;page cursor&gt;~&lt;n&gt;</c>
    /// (the page's own <c>after</c> and how many of its items were handed out), so resuming skips exactly those. The
    /// same rule in every client (docs/decisions/clients.md).
    /// </remarks>
    public sealed class CursorFeed<T>
    {
        private const char Separator = '~';
        private readonly Func<string, Task<JsonObject>> _fetchPage;
        private readonly Func<object, T> _item;
        private string _pageAfter;
        private int _handedOut;
        private JsonObject _page;
        private List<T> _items;
        private bool _fetched;

        internal CursorFeed(Func<string, Task<JsonObject>> fetchPage, Func<object, T> item, string after)
        {
            _fetchPage = fetchPage;
            _item = item;
            _pageAfter = after;
            var at = after == null ? -1 : after.LastIndexOf(Separator);
            if (at >= 0)
            {
                int count;
                if (!int.TryParse(after.Substring(at + 1), out count) || count < 0)
                    throw new ArgumentException("not a feed position: " + after, "after");
                _pageAfter = at == 0 ? null : after.Substring(0, at);
                _handedOut = count;
            }
        }

        /// <summary>The item <see cref="MoveNextAsync"/> moved to.</summary>
        public T Current { get; private set; }

        /// <summary>Where to resume: the position after the last item handed out (null before the first page).</summary>
        public string Cursor
        {
            get
            {
                if (_page != null && _handedOut >= _items.Count) return _page.GetString("nextCursor");
                if (_handedOut == 0) return _pageAfter;
                return (_pageAfter ?? "") + Separator + _handedOut;
            }
        }

        /// <summary>Moves to the next item, fetching the next page when this one is used up; false once caught up.</summary>
        public async Task<bool> MoveNextAsync()
        {
            while (true)
            {
                if (_page != null && _handedOut < _items.Count)
                {
                    Current = _items[_handedOut++];
                    return true;
                }
                if (_page != null && _fetched && !_page.GetBoolean("hasMore"))
                {
                    _fetched = false;
                    return false;
                }
                if (_page != null)
                {
                    // A stored position can skip past this page's end: the rest is skipped on the next one.
                    _handedOut = _page.GetBoolean("hasMore") ? _handedOut - _items.Count : 0;
                    _pageAfter = _page.GetString("nextCursor");
                }
                _page = await _fetchPage(_pageAfter).ConfigureAwait(false);
                _items = _page.GetArray("items").Select(_item).ToList();
                _fetched = true;
            }
        }

        /// <summary>Every remaining item, in one list (the feed is read until it has nothing more).</summary>
        public async Task<List<T>> ToListAsync()
        {
            var items = new List<T>();
            while (await MoveNextAsync().ConfigureAwait(false)) items.Add(Current);
            return items;
        }
    }
}
