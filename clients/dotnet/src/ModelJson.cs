using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;

namespace Warehouse.Api
{
    /// <summary>A generated model: built from the API's JSON by its <c>FromJson</c>, written back by <see cref="ToJson"/>.</summary>
    public interface IJsonModel
    {
        /// <summary>The API's JSON for this record: its known fields, then <c>AdditionalProperties</c>.</summary>
        JsonObject ToJson();
    }

    /// <summary>The JSON name of an enum member (<c>read:products</c> for <c>Scope.ReadProducts</c>).</summary>
    [AttributeUsage(AttributeTargets.Field)]
    public sealed class WireNameAttribute : Attribute
    {
        public WireNameAttribute(string name) { Name = name; }
        public string Name { get; }
    }

    /// <summary>
    /// The conversions the generated models share. Reading never throws on what a newer server may send: a missing
    /// field is null, a field this version does not know goes to <c>AdditionalProperties</c>, and so does an enum value
    /// it does not know (the property reads null, or <c>Unknown</c> inside a list).
    /// </summary>
    public static class ModelJson
    {
        public static string ToStringValue(object value) { return value as string ?? (value == null ? null : Convert.ToString(value, CultureInfo.InvariantCulture)); }

        public static long? ToInt64(object value)
        {
            return IsNumber(value) ? Convert.ToInt64(value, CultureInfo.InvariantCulture) : (long?)null;
        }

        public static decimal? ToDecimal(object value)
        {
            return IsNumber(value) ? Convert.ToDecimal(value, CultureInfo.InvariantCulture) : (decimal?)null;
        }

        public static bool? ToBoolean(object value) { return value is bool flag ? flag : (bool?)null; }

        /// <summary>An enum member by its JSON name; null for a value this version does not know.</summary>
        public static T? ToEnum<T>(object value) where T : struct
        {
            var name = value as string;
            if (name == null) return null;
            foreach (var field in typeof(T).GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                var wire = field.GetCustomAttribute<WireNameAttribute>();
                if (wire != null && wire.Name == name) return (T)field.GetValue(null);
            }
            return null;
        }

        /// <summary>An enum field of a record: an unknown value reads null and is kept in <paramref name="unknown"/>.</summary>
        public static T? ReadEnum<T>(JsonObject json, string name, JsonObject unknown) where T : struct
        {
            object value;
            if (!json.TryGetValue(name, out value) || value == null) return null;
            var member = ToEnum<T>(value);
            if (member == null) unknown[name] = value;
            return member;
        }

        public static IList<T> ToList<T>(object value, Func<object, T> item)
        {
            var items = value as IList<object>;
            return items == null ? null : items.Select(item).ToList();
        }

        public static IDictionary<string, T> ToMap<T>(object value, Func<object, T> item)
        {
            var map = value as JsonObject;
            return map == null ? null : map.ToDictionary(pair => pair.Key, pair => item(pair.Value));
        }

        public static object Get(JsonObject json, string name)
        {
            object value;
            return json.TryGetValue(name, out value) ? value : null;
        }

        /// <summary>The fields of <paramref name="json"/> that <paramref name="known"/> does not list.</summary>
        public static void KeepUnknown(JsonObject json, JsonObject into, ICollection<string> known)
        {
            foreach (var pair in json) if (!known.Contains(pair.Key)) into[pair.Key] = pair.Value;
        }

        /// <summary>Writes a field: left out when null, unless the API requires it.</summary>
        public static void Put(JsonObject json, string name, object value, bool required)
        {
            if (value == null && !required) return;
            json[name] = ToJsonValue(value);
        }

        /// <summary>A model, enum, list or map as the JSON the API reads.</summary>
        public static object ToJsonValue(object value)
        {
            if (value == null || value is string) return value;
            var model = value as IJsonModel;
            if (model != null) return model.ToJson();
            if (value is Enum) return WireName((Enum)value);
            var map = value as IDictionary;
            if (map != null)
            {
                var json = new JsonObject();
                foreach (DictionaryEntry entry in map) json[Convert.ToString(entry.Key, CultureInfo.InvariantCulture)] = ToJsonValue(entry.Value);
                return json;
            }
            var items = value as IEnumerable;
            if (items != null) return items.Cast<object>().Select(ToJsonValue).ToList();
            return value;
        }

        /// <summary>An enum member's JSON name (its <see cref="WireNameAttribute"/>), or its C# name without one.</summary>
        public static string WireName(Enum value)
        {
            var field = value.GetType().GetField(value.ToString());
            var wire = field == null ? null : field.GetCustomAttribute<WireNameAttribute>();
            return wire != null ? wire.Name : value.ToString();
        }

        private static bool IsNumber(object value)
        {
            return value is long || value is int || value is decimal || value is double || value is float || value is short || value is byte;
        }
    }
}
